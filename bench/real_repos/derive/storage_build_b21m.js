// The project's own build.js (esbuild, each src/**/*.ts to CommonJS, sourcemaps), written outside the checkout.
const { build } = require('esbuild')
const path = require('path')
const fs = require('fs')
const src = '/work/realrepos/storage/src'
const files = []
const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const f = path.join(d, e.name); if (e.isDirectory()) walk(f); else if (f.endsWith('.ts') && !f.endsWith('.d.ts')) files.push(f) } }
walk(src)
build({ entryPoints: files, outbase: src, bundle: false, outdir: path.join(__dirname, 'dist'), platform: 'node', format: 'cjs', target: 'node22', sourcemap: true, tsconfig: '/work/realrepos/storage/tsconfig.json', loader: { '.ts': 'ts' } }).then(() => console.log('built', files.length)).catch((e) => { console.error(e); process.exit(1) })
