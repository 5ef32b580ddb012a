// Ground-truth routes of a koa-swagger-decorator router from its own stack (never runs the packs).
//
//   NODE_PATH=<koa-swagger-decorator, koa-router, koa, typescript> [STUB=frag,…] \
//     node -r ./js_orm_hook.js koa_swagger_routes.js CHECKOUT ROUTER_MODULE [EXPORT]
//
// ROUTER_MODULE (relative to CHECKOUT) exports the router (`default` unless EXPORT names
// another export) after its `swagger()`, `map(Class)` and `mapDir(dir)` calls ran: the
// library's own code reads the `@request`/`@prefix` decorators, so the router's `stack` is what
// the app serves under it. Packages other than the router's are stubs (js_orm_hook.js), so
// nothing connects. HEAD (koa-router adds it beside every GET) is left out. A decorated
// method's place is its `@request` line in the file that declares its class; the swagger
// routes' is the router module's.
'use strict'
const path = require('path')
const fs = require('fs')

const [checkoutArg, moduleArg, exportName = 'default'] = process.argv.slice(2)
const checkout = path.resolve(checkoutArg)
const { SwaggerRouter } = require('koa-swagger-decorator')

const declaring = new Map() // class → file
let mapping = null // the class `map` is registering now
const map = SwaggerRouter.prototype.map
SwaggerRouter.prototype.map = function (cls, options) {
  for (const m of Object.values(require.cache)) {
    const e = m.exports
    if (e === cls || (e && (e.default === cls || Object.values(e).includes(cls)))) declaring.set(cls, m.filename)
  }
  mapping = cls
  try { return map.call(this, cls, options) } finally { mapping = null }
}
const register = Object.getPrototypeOf(SwaggerRouter.prototype).register
Object.getPrototypeOf(SwaggerRouter.prototype).register = function (...args) {
  const layer = register.apply(this, args)
  if (layer && mapping) layer.mappedFrom = mapping
  return layer
}

const routerModule = require(path.join(checkout, moduleArg))
const router = routerModule[exportName] || routerModule
const rel = (f) => path.relative(checkout, f)

function placeOf (cls, handler) {
  const file = declaring.get(cls)
  if (file) {
    const lines = fs.readFileSync(file, 'utf8').split('\n')
    const at = lines.findIndex(l => new RegExp(`\\b${handler.fnName}\\s*\\(`).test(l) && !/^\s*(\/\/|\*)/.test(l))
    let line = at
    while (line > 0 && !/@request\s*\(/.test(lines[line])) line--
    return { file: rel(file), line: (line >= 0 ? line : at) + 1 }
  }
  return { file: moduleArg, line: 0 }
}

const out = new Map()
for (const layer of router.stack) {
  const handler = layer.stack[layer.stack.length - 1]
  const at = handler && handler.fnName && layer.mappedFrom ? placeOf(layer.mappedFrom, handler) : { file: moduleArg, line: 0 }
  for (const method of layer.methods) {
    if (method === 'HEAD') continue
    const name = `${method} ${layer.path.length > 1 ? layer.path.replace(/\/$/, '') : layer.path}`
    if (!out.has(name)) out.set(name, { name, file: at.file, line: at.line, files: [at.file] })
  }
}
process.stdout.write(JSON.stringify([...out.values()].sort((a, b) => a.name < b.name ? -1 : 1), null, 1) + '\n')
