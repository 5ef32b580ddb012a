// Loads a repository's model files under Node with only the ORM packages installed (NODE_PATH):
// any other package the files require, and any of the repository's own modules named in
// STUB (comma-separated path fragments), is replaced by an inert stub (callable, constructible,
// every property another stub), so the ORM's own code runs and names its tables. TypeScript is
// transpiled in memory (decorators and their metadata on); tsconfig `paths` aliases resolve
// (TSCONFIG). Nothing connects anywhere: the ORM objects are built with dialects that only
// connect when a query runs, and none runs. Used by js_orm_truth.js.
'use strict'
const Module = require('module')
const path = require('path')
const fs = require('fs')

const STUB = Symbol.for('js-orm-hook.stub')
function stub (name) {
  const target = function () {}
  return new Proxy(target, {
    get (_t, key) {
      if (key === STUB) return true
      if (key === Symbol.toPrimitive) return () => ''
      if (key === 'then') return undefined
      if (key === '__esModule') return true
      if (key === Symbol.iterator) return function * () {}
      if (key === 'prototype') return {}
      // duck-typing probes (`instanceOfSchema`, `$isMongooseModel`, `_isX`): a stub is none of them
      if (typeof key === 'string' && /^(instanceOf|\$is|\$__|_|is[A-Z])/.test(key)) return undefined
      return stub(name + '.' + String(key))
    },
    apply (_t, _this, args) {
      // used as a decorator (a stubbed package's `@IsEmail()`): it leaves the member or class as it is
      if (args.length >= 2 && args[0] && (typeof args[0] === 'object' || typeof args[0] === 'function') && ['string', 'symbol'].includes(typeof args[1])) return undefined
      if (args.length === 1 && typeof args[0] === 'function' && /^class\b/.test(Function.prototype.toString.call(args[0]))) return undefined
      return stub(name + '()')
    },
    construct () { return stub('new ' + name) },
    has () { return false },
    ownKeys () { return ['prototype'] },
    getOwnPropertyDescriptor (_t, key) { return key === 'prototype' ? Object.getOwnPropertyDescriptor(target, key) : undefined }
  })
}
function isStub (value) {
  try { return value != null && value[STUB] === true } catch (e) { return false }
}

const stubbed = (process.env.STUB || '').split(',').filter(Boolean)
const aliases = []
if (process.env.TSCONFIG) {
  const ts = require('typescript')
  const read = ts.readConfigFile(process.env.TSCONFIG, ts.sys.readFile)
  const options = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(process.env.TSCONFIG)).options
  const base = options.baseUrl || path.dirname(process.env.TSCONFIG)
  for (const [pattern, targets] of Object.entries(options.paths || {})) {
    aliases.push([pattern, targets.map(t => path.resolve(base, t))])
  }
  if (options.baseUrl) aliases.push(['*', [path.resolve(options.baseUrl, '*')]])
}

// `.mjs` files: Node 20 loads them through its ESM loader, which these hooks do not reach, so
// each is copied (to MIRROR/<its absolute path>.cjs) and loaded from there as CommonJS, its
// own imports resolved from where the original lives
const os = require('os')
const MIRROR = fs.mkdtempSync(path.join(os.tmpdir(), 'js-orm-hook-'))
function original (filename) {
  return filename && filename.startsWith(MIRROR) ? filename.slice(MIRROR.length).replace(/\.cjs$/, '') : filename
}
function mirrored (filename) {
  if (!filename.endsWith('.mjs')) return filename
  const copy = path.join(MIRROR, filename + '.cjs')
  if (!fs.existsSync(copy)) {
    fs.mkdirSync(path.dirname(copy), { recursive: true })
    fs.copyFileSync(filename, copy)
  }
  return copy
}
Module._extensions['.cjs'] = function (module, filename) {
  if (filename.startsWith(MIRROR)) return transpile(module, filename)
  return Module._extensions['.js'](module, filename)
}
const resolve = Module._resolveFilename
Module._resolveFilename = function (request, parent, ...rest) {
  if (parent && parent.filename && parent.filename.startsWith(MIRROR)) {
    const from = original(parent.filename)
    parent = { id: from, filename: from, paths: Module._nodeModulePaths(path.dirname(from)) }
  }
  if (path.isAbsolute(request) && request.endsWith('.mjs')) return mirrored(request)
  const candidates = [request]
  for (const [pattern, targets] of aliases) {
    const star = pattern.indexOf('*')
    if (star < 0 ? request === pattern : (request.startsWith(pattern.slice(0, star)) && request.endsWith(pattern.slice(star + 1)))) {
      const middle = star < 0 ? '' : request.slice(star, request.length - (pattern.length - star - 1))
      for (const t of targets) candidates.push(t.replace('*', middle))
    }
  }
  for (const candidate of candidates) {
    try {
      const found = resolve.call(this, candidate, parent, ...rest)
      if (stubbed.some(s => found.includes(s))) return 'js-orm-hook-stub:' + request
      return mirrored(found)
    } catch (e) {}
  }
  // a project module missing from the checkout (a git-ignored settings file its README says to
  // copy from an example): named in STUB by the very specifier the code uses (`../config`)
  if (stubbed.includes(request)) return 'js-orm-hook-stub:' + request
  if (request.startsWith('.') || request.startsWith('/')) {
    throw new Error(`cannot resolve ${request} from ${parent && parent.filename}`)
  }
  return 'js-orm-hook-stub:' + request
}
const load = Module._load
Module._load = function (request, parent, ...rest) {
  let id
  try { id = Module._resolveFilename(request, parent) } catch (e) { id = null }
  if (id && id.startsWith('js-orm-hook-stub:')) return stub(request)
  return load.call(this, request, parent, ...rest)
}

let ts = null
function transpile (module, filename) {
  ts = ts || require('typescript')
  const source = fs.readFileSync(filename, 'utf8')
  const out = ts.transpileModule(source, {
    fileName: filename,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true,
      experimentalDecorators: true, emitDecoratorMetadata: true, jsx: ts.JsxEmit.React,
      useDefineForClassFields: false
    }
  })
  module._compile(out.outputText, filename)
}
for (const ext of ['.ts', '.tsx', '.mts', '.cts']) Module._extensions[ext] = transpile
// ESM-syntax .js / .mjs in a CommonJS load: transpiled the same way
const jsLoader = Module._extensions['.js']
Module._extensions['.js'] = function (module, filename) {
  const source = fs.readFileSync(filename, 'utf8')
  if (!filename.includes('node_modules') && /^\s*(import|export)\s/m.test(source)) return transpile(module, filename)
  return jsLoader(module, filename)
}
Module._extensions['.mjs'] = Module._extensions['.js']

module.exports = { stub, isStub }
