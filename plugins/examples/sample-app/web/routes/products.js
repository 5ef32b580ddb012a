const { Router } = require('express');

const router = Router();

function requireLogin(req, res, next) {
  return req.get('authorization') ? next() : res.sendStatus(401);
}

router.get('/products', (req, res) => res.json([]));
router.get('/products/:sku', (req, res) => res.json({ sku: req.params.sku }));
router.post('/products', requireLogin, (req, res) => res.status(201).json(req.body));

module.exports = router;
