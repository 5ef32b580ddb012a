"""GPP/3 as data: `gpp3.json`, read by the Node SDK and client and checked against the Python
tables, and `generate`, the `make contract` script that writes what is derived from it."""
