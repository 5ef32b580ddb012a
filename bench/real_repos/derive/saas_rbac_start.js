// nextjs-fastify-saas-rbac's API (apps/api) as `tsx src/http/server.ts` runs it, for
// fastify_runtime_routes.js mode `main` (never runs the packs): its tsconfig's `@/*` alias
// (./src/*) and the pnpm workspace packages @saas/env and @saas/auth (their package.json `main`,
// TypeScript) resolved as the workspace links them; the environment its @saas/env schema
// requires, with placeholder values (DATABASE_URL on 127.0.0.1, never connected; an RSA key
// pair made here for @fastify/jwt's RS256); then src/http/server.ts (its `listen` opens no port).
//
//   CHECKOUT=… STUB_MODULES=@prisma/client,sharp,@aws-sdk/client-s3 NODE_PATH=<node_modules> \
//     node derive/fastify_runtime_routes.js $CHECKOUT $PWD/derive/saas_rbac_start.js main
"use strict";
const Module = require("node:module");
const path = require("node:path");
const crypto = require("node:crypto");

const checkout = path.resolve(process.env.CHECKOUT);
const api = path.join(checkout, "apps/api");
const workspace = {
  "@saas/env": path.join(checkout, "packages/env/index.ts"),
  "@saas/auth": path.join(checkout, "packages/auth/src/index.ts"),
};
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (workspace[request]) return workspace[request];
  if (request.startsWith("@/")) request = path.join(api, "src", request.slice(2));
  return resolve.call(this, request, parent, ...rest);
};

const { publicKey, privateKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
const pem = (key, type) => Buffer.from(key.export({ type, format: "pem" })).toString("base64");
Object.assign(process.env, {
  DATABASE_URL: "postgresql://truth:truth@127.0.0.1:9/truth",
  PORT: "3333",
  NEXT_PUBLIC_URL: "http://127.0.0.1:3000",
  NEXT_PUBLIC_API_URL: "http://127.0.0.1:3333",
  NEXT_PUBLIC_CLOUDFLARE_URL: "http://127.0.0.1:9",
  JWT_SECRET_KEY: pem(privateKey, "pkcs8"),
  JWT_PUBLIC_KEY: pem(publicKey, "spki"),
  GITHUB_OAUTH_CLIENT_ID: "x",
  GITHUB_OAUTH_CLIENT_SECRET: "x",
  GITHUB_OAUTH_CLIENT_REDIRECT_URI: "http://127.0.0.1:3000/api/auth/callback/github",
  GOOGLE_OAUTH_CLIENT_ID: "x",
  GOOGLE_OAUTH_CLIENT_SECRET: "x",
  GOOGLE_OAUTH_CLIENT_REDIRECT_URI: "http://127.0.0.1:3000/api/auth/callback/google",
  MAIL_SMTP_EMAIL: "x@example.invalid",
  MAIL_SMTP_PASSWORD: "x",
  CLOUDFLARE_ACCOUNT_ID: "x",
  CLOUDFLARE_ENDPOINT: "http://127.0.0.1:9",
  CLOUDFLARE_BUCKET: "x",
  CLOUDFLARE_ACCESS_KEY: "x",
  CLOUDFLARE_SECRET_KEY: "x",
});
require(path.join(api, "src/http/server.ts"));
