// Preload (`node -r`) for the JavaScript truth drivers: the app under study may reach only the
// loopback addresses. Any socket to another host, and any DNS lookup of a name other than
// `localhost`, fails at once with ECONNREFUSED / ENOTFOUND (reported on stderr), so a plugin
// that fetches a discovery document or connects to a cache at start-up fails here instead of
// leaving the machine. Never runs the packs.
"use strict";
const net = require("node:net");
const dns = require("node:dns");

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost|::ffff:127\.\d+\.\d+\.\d+)$/i;

function refuse(what, code) {
  const error = new Error(`truth loopback guard: refused ${what}`);
  error.code = code;
  return error;
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  let options = args[0];
  if (Array.isArray(options)) options = options[0];
  let host;
  if (options && typeof options === "object") host = options.path ? "localhost" : options.host || "localhost";
  else if (typeof options === "string" && !/^\d+$/.test(options)) host = "localhost"; // a unix socket path
  else host = typeof args[1] === "string" ? args[1] : "localhost";
  if (!LOOPBACK.test(String(host))) {
    console.error(`truth loopback guard: socket to ${host} refused`);
    process.nextTick(() => this.destroy(refuse(`a socket to ${host}`, "ECONNREFUSED")));
    return this;
  }
  return connect.apply(this, args);
};

const lookup = dns.lookup;
dns.lookup = function (hostname, options, callback) {
  const cb = typeof options === "function" ? options : callback;
  if (!LOOPBACK.test(String(hostname))) {
    console.error(`truth loopback guard: DNS lookup of ${hostname} refused`);
    process.nextTick(() => cb(refuse(`a DNS lookup of ${hostname}`, "ENOTFOUND")));
    return {};
  }
  return lookup.apply(this, arguments);
};
const plookup = dns.promises.lookup;
dns.promises.lookup = async function (hostname, ...rest) {
  if (!LOOPBACK.test(String(hostname))) {
    console.error(`truth loopback guard: DNS lookup of ${hostname} refused`);
    throw refuse(`a DNS lookup of ${hostname}`, "ENOTFOUND");
  }
  return plookup.call(this, hostname, ...rest);
};
for (const name of ["resolve", "resolve4", "resolve6", "resolveAny"]) {
  dns[name] = (host, ...rest) => {
    const cb = rest[rest.length - 1];
    process.nextTick(() => cb(refuse(`a DNS query for ${host}`, "ENOTFOUND")));
  };
}
