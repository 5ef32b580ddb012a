// Preload for a lin-mizar (Lin CMS) app's model files: lin-mizar reads its config at require
// time, so the config is initialised as the app's own starter does (the checkout's app/config/*
// files) before js_orm_truth.js loads the models. CHECKOUT: the app's folder. Never runs packs.
'use strict'
const fs = require('fs')
const path = require('path')
const { config } = require('lin-mizar/lin/config')
const base = path.resolve(process.env.CHECKOUT)
config.init(base)
for (const file of fs.readdirSync(path.join(base, 'app/config'))) config.getConfigFromFile(`app/config/${file}`)
