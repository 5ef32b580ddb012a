// The tables (or collections) a JavaScript ORM itself names for a repository's models, printed
// as a truth file's `expected` list (JSON). No pack is imported; nothing connects.
//
//   NODE_PATH=<truthenv>/node_modules [STUB=frag,…] [GLOBALS=WIKI,…] [TSCONFIG=…] \
//     node js_orm_truth.js ORM CHECKOUT FILE…   (FILE: relative to CHECKOUT, a glob with *, **)
//
// sequelize  (SEQUELIZE_TS=models: the classes the files export, given to a sequelize-typescript
//            Sequelize as its `models`) every Sequelize built (the constructor's options kept, the dialect replaced by a
//            postgres URL on 127.0.0.1 that nothing queries) → `sequelize.models[*].getTableName()`
// typeorm    every @Entity class loaded → `new DataSource({type:'postgres', entities,
//            namingStrategy: NAMING=snake|default}).buildMetadatas()  (TYPEORM_TYPE=sqljs: sqlite's types; =mysql: MySQL's)` → `entityMetadatas`
//            (tables, junction tables; not a single-table child, not a view)
// mongoose   every connection's models → `model.collection.name`
// prisma     the schema files (one, or a folder's) → @prisma/internals getDMMF: a model's
//            dbName (`@@map`) else its name; an implicit many-to-many relation's `_<name>` table
// knex       each migration's `up(knex)` in file-name order (knex's own order) on a knex
//            whose client records the SQL it would send; the tables alive at the end
//            (KNEX_DIALECT=mysql: that dialect's client, postgres by default; KNEX_TOLERATE=1:
//            a migration whose row-reading data step fails is reported on stderr and passed)
// A model's file and line: the first frame of the call that made it inside CHECKOUT (for a
// decorated class, the file that declares the class).
'use strict'
const path = require('path')
const fs = require('fs')
const { isStub } = require('./js_orm_hook.js')

const [orm, checkoutArg, ...patterns] = process.argv.slice(2)
const checkout = path.resolve(checkoutArg)
for (const name of (process.env.GLOBALS || '').split(',').filter(Boolean)) {
  global[name] = require('./js_orm_hook.js').stub(name)
}

function glob (pattern) {
  const parts = pattern.split('/')
  // an absolute FILE (a driver outside the checkout that calls the app's own model set-up)
  let found = [pattern.startsWith('/') ? '/' : checkout]
  for (const part of parts) {
    const next = []
    for (const dir of found) {
      if (part === '**') {
        const walk = (d) => { next.push(d); for (const e of fs.readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) walk(path.join(d, e.name)) }
        walk(dir)
      } else if (part.includes('*')) {
        const re = new RegExp('^' + part.replace(/\./g, '\\.').replace(/\*/g, '.*') + '$')
        if (fs.existsSync(dir) && fs.statSync(dir).isDirectory()) for (const e of fs.readdirSync(dir)) if (re.test(e)) next.push(path.join(dir, e))
      } else next.push(path.join(dir, part))
    }
    found = next
  }
  return found.filter(f => fs.existsSync(f) && fs.statSync(f).isFile() && !/\.d\.ts$/.test(f)).sort()
}
// GLOBALS_JSON: globals the files read, as plain data (`{"WIKI": {"config": …}}`)
Object.assign(global, JSON.parse(process.env.GLOBALS_JSON || '{}'))
// ORDER=semver: migration files named by version (`2.5.12.js`), run in version order
const byVersion = (a, b) => {
  const v = (f) => path.basename(f).replace(/\.[jt]s$/, '').split('.').map(Number)
  const [x, y] = [v(a), v(b)]
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] || 0) !== (y[i] || 0)) return (x[i] || 0) - (y[i] || 0)
  return 0
}
const files = patterns.flatMap(glob)
if (process.env.ORDER === 'semver') files.sort(byVersion)

function where (stack) {
  for (const line of String(stack).split('\n').slice(1)) {
    const m = line.match(/\(?([^()\s]+):(\d+):\d+\)?$/)
    if (m && m[1].startsWith(checkout + path.sep) && !m[1].includes('node_modules')) {
      return { file: path.relative(checkout, m[1]), line: Number(m[2]) }
    }
  }
  return null
}
function classFile (name) {
  const re = new RegExp(`class\\s+${name}\\b`)
  const loaded = Object.keys(require.cache).filter(f => f.startsWith(checkout + path.sep) && !f.includes('node_modules'))
  for (const f of [...files, ...loaded.sort()]) {
    const lines = fs.readFileSync(f, 'utf8').split('\n')
    const i = lines.findIndex(l => re.test(l))
    if (i >= 0) return { file: path.relative(checkout, f), line: i + 1 }
  }
  return null
}
function modelCall (name) { // where `model('Name', …)` is written, when no stack frame said
  const re = new RegExp(`model\\(\\s*['"\`]${name}['"\`]\\s*,`)
  for (const f of files) {
    const text = fs.readFileSync(f, 'utf8')
    const m = re.exec(text)
    if (m) return { file: path.relative(checkout, f), line: text.slice(0, m.index).split('\n').length }
  }
  return null
}
const out = new Map()
function add (name, at) {
  if (out.has(name)) return
  at = at || { file: '', line: 0 }
  out.set(name, { name, file: at.file, line: at.line, files: [at.file] })
}
function finish () {
  process.stdout.write(JSON.stringify([...out.values()].sort((a, b) => a.name < b.name ? -1 : 1), null, 1) + '\n')
}

async function main () {
  if (orm === 'sequelize') {
    const cacheId = require.resolve('sequelize')
    const original = require('sequelize')
    const instances = []
    const made = new Map()
    class Patched extends original {
      constructor (...args) {
        const options = [...args].reverse().find(a => a && typeof a === 'object' && !isStub(a) && !Array.isArray(a)) || {}
        const kept = {}
        for (const [k, v] of Object.entries(options)) if (!isStub(v) && !['dialect', 'host', 'port', 'storage', 'dialectOptions', 'pool', 'replication'].includes(k)) kept[k] = v
        super('postgres://u:p@127.0.0.1:1/x', { ...kept, dialect: 'postgres', logging: false })
        instances.push(this)
      }
    }
    Patched.Sequelize = Patched
    Patched.default = Patched
    require.cache[cacheId].exports = Patched
    const init = original.Model.init
    original.Model.init = function (attributes, options) {
      const at = where(new Error().stack)
      const result = init.call(this, attributes, options)
      made.set(this, at)
      return result
    }
    // Sequelize 3 and 4: `define` makes the model (a Model instance in 3, no `init`): placed at the
    // define call, in the model's own file
    const define = original.prototype.define
    original.prototype.define = function (...args) {
      const at = where(new Error().stack)
      const result = define.apply(this, args)
      if (!made.has(result)) made.set(result, at)
      return result
    }
    const loaded = files.map(f => require(f))
    if (process.env.SEQUELIZE_TS === 'models') {
      // sequelize-typescript: the classes the FILEs export are the `models` option of a
      // Sequelize, as the app's own database module passes them
      const { Sequelize } = require('sequelize-typescript')
      const classes = loaded.flatMap(m => Object.values(m)).filter(c => typeof c === 'function' && c.prototype instanceof original.Model)
      new Sequelize({ dialect: 'postgres', models: [...new Set(classes)] }) // eslint-disable-line no-new
    }
    for (const s of instances) {
      for (const model of Object.values(s.models)) {
        const table = model.getTableName()
        const name = typeof table === 'string' ? table : table.tableName
        let at = made.get(model)
        const declared = typeof model !== 'function' ? model.name : (Function.prototype.toString.call(model).match(/^class\s+([\w$]+)/) || [])[1] || model.name
        if (!at || /index\.[jt]s$/.test(at.file) || !at.file) at = classFile(declared) || at
        add(name, at)
      }
    }
  } else if (orm === 'typeorm') {
    require('reflect-metadata')
    const typeorm = require('typeorm')
    for (const f of files) require(f)
    const targets = typeorm.getMetadataArgsStorage().tables.map(t => t.target).filter(t => typeof t === 'function')
    let namingStrategy
    if (process.env.NAMING === 'snake') namingStrategy = new (require('typeorm-naming-strategies').SnakeNamingStrategy)()
    const type = process.env.TYPEORM_TYPE || 'postgres'
    // TYPEORM_TYPE=mysql: MySQL's types (`tinyint`); its driver asks for a database name, never used
    const extra = type === 'mysql' ? { database: 'truth' } : {}
    const ds = new typeorm.DataSource({ type, entities: targets, namingStrategy, ...extra })
    await ds.buildMetadatas()
    for (const m of ds.entityMetadatas) {
      if (m.tableType === 'entity-child' || m.tableType === 'view' || m.tableType === 'abstract') continue
      const owner = m.tableType === 'junction' && m.parentEntityMetadata ? m.parentEntityMetadata.target : m.target
      add(m.tableName, typeof owner === 'function' ? classFile(owner.name) : null)
    }
  } else if (orm === 'mongoose') {
    const mongoose = require('mongoose')
    const made = new Map()
    const Connection = mongoose.Connection.prototype
    const model = Connection.model
    Connection.model = function (name, schema, ...rest) {
      if (schema) made.set(name, where(new Error().stack))
      return model.call(this, name, schema, ...rest)
    }
    const top = mongoose.Mongoose.prototype.model
    mongoose.Mongoose.prototype.model = function (name, schema, ...rest) {
      if (schema) made.set(name, where(new Error().stack))
      return top.call(this, name, schema, ...rest)
    }
    // a second connection is made without its URI: it holds models, it never connects
    mongoose.connect = async function () { return this } // never connects
    const createConnection = mongoose.createConnection
    mongoose.createConnection = function () { return createConnection.call(this) }
    for (const f of files) {
      try { require(f) } catch (e) {
        // two files that compile one model name: the app loads one of them, never both
        if (e.name !== 'OverwriteModelError') throw e
        console.error(`${path.relative(checkout, f)}: ${e.message}`)
      }
    }
    for (const conn of mongoose.connections) {
      for (const [name, m] of Object.entries(conn.models)) add(m.collection.name, made.get(name) || modelCall(name))
    }
  } else if (orm === 'knex') {
    // KNEX_DIALECT=mysql: the migrations use a dialect's own builders (`table.charset()`); its SQL quotes with backticks
    const dialect = process.env.KNEX_DIALECT || 'postgres'
    const Client = require('knex/lib/dialects/' + dialect)
    const tables = new Map() // alive now, as the statements sent so far left them
    let current = null
    function apply (statement, bindings) {
      let m
      if (/information_schema\.tables/i.test(statement)) return tables.has(bindings[0]) ? [{ exists: 1 }] : []
      if (/information_schema\.columns/i.test(statement)) return []
      // MySQL's renameColumn reads the column first (`show full fields … where field = ?`): one column of it
      if (/^show\s+full\s+fields/i.test(statement)) return [{ Field: bindings[bindings.length - 1], Type: 'text', Null: 'YES', Default: null, Extra: '', Comment: '' }]
      // knex's own SQL quotes its names; a raw() statement may not
      for (const one of statement.replace(/--[^\n]*/g, '').split(';')) {
        const s = one.trim()
        if ((m = s.match(/^create\s+(?:unlogged\s+)?table\s+(?:if\s+not\s+exists\s+)?(?:["`]?\w+["`]?\.)?["`]?([\w$]+)["`]?/i))) {
          if (!tables.has(m[1])) tables.set(m[1], current || where(new Error().stack))
        } else if ((m = s.match(/^drop\s+table\s+(?:if\s+exists\s+)?([\s\S]+?)(?:\s+cascade|\s+restrict)?$/i))) {
          for (const n of m[1].split(',')) tables.delete(n.trim().replace(/^(?:.*\.)?["`]?|["`]$/g, ''))
        } else if ((m = s.match(/^alter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?(?:["`]?\w+["`]?\.)?["`]?([\w$]+)["`]?\s+rename\s+to\s+["`]?([\w$]+)["`]?/i))) {
          tables.set(m[2], tables.get(m[1])); tables.delete(m[1])
        }
      }
      if (/^select/i.test(statement) && /count\(/i.test(statement)) return [{ count: '0' }]
      return []
    }
    class Recording extends Client {
      acquireConnection () { return Promise.resolve({}) }
      releaseConnection () { return Promise.resolve() }
      _query (connection, obj) {
        const rows = apply(obj.sql, obj.bindings || [])
        // mysql's client reads a response as [rows, fields]
        obj.response = dialect.startsWith('mysql') ? [rows, []] : { rows, rowCount: 0, fields: [], command: obj.sql.split(' ')[0].toUpperCase() }
        return Promise.resolve(obj)
      }
      checkVersion () { return Promise.resolve('15.0') }
    }
    const Builder = require('knex/lib/schema/builder')
    for (const method of ['createTable', 'createTableIfNotExists']) {
      const make = Builder.prototype[method]
      Builder.prototype[method] = function (...args) { current = where(new Error().stack); return make.apply(this, args) }
    }
    // knex's deprecation warnings to stderr: stdout is the truth
    const log = { warn: (m) => process.stderr.write(`${m}\n`), deprecate: (m) => process.stderr.write(`${m}\n`) }
    const knex = require('knex')({ client: Recording, connection: {}, log })
    // KNEX_CLIENT=postgresql: the client name a migration reads (`knex.client.config.client`)
    if (process.env.KNEX_CLIENT) knex.client.config.client = process.env.KNEX_CLIENT
    for (const f of files) {
      const migration = require(f)
      const up = migration.up || (migration.default && migration.default.up)
      current = null
      // KNEX_TOLERATE=1: a data migration that reads rows (none come back here) and fails on
      // them is reported on stderr and passed; its schema statements before the failure count
      if (!process.env.KNEX_TOLERATE) await up(knex, Promise)
      else await up(knex, Promise).catch(e => process.stderr.write(`data migration failed (passed): ${path.relative(checkout, f)}: ${e.message}\n`))
    }
    for (const [name, at] of tables) add(name, at)
  } else if (orm === 'prisma') {
    const { getDMMF } = require('@prisma/internals')
    const schemas = files.map(f => [path.relative(checkout, f), fs.readFileSync(f, 'utf8')])
    const dmmf = await getDMMF({ datamodel: schemas.length === 1 ? schemas[0][1] : schemas })
    const declared = (name) => {
      for (const [file, text] of schemas) {
        const i = text.split('\n').findIndex(l => new RegExp(`^\\s*model\\s+${name}\\s*\\{`).test(l))
        if (i >= 0) return { file, line: i + 1 }
      }
      return null
    }
    const models = dmmf.datamodel.models
    for (const m of models) add(m.dbName || m.name, declared(m.name))
    // implicit many-to-many relations: a table `_<relation name>` of Prisma's own
    for (const m of models) {
      for (const f of m.fields) {
        if (f.kind !== 'object' || !f.isList || (f.relationFromFields || []).length) continue
        const other = models.find(o => o.name === f.type)
        const back = other && other.fields.find(g => g.relationName === f.relationName && g !== f)
        if (back && back.isList) add('_' + f.relationName, declared(m.name))
      }
    }
  } else throw new Error('unknown ORM ' + orm)
  finish()
}
main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1) })
