const express = require('express');

const products = require('./routes/products');

const app = express();
app.use(express.json());
app.use('/shop', products);

app.get('/', (req, res) => res.send('sample shop'));

module.exports = app;
