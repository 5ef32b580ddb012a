"""Write a stand-in for Prisma's generated client (`.prisma/client/default.js`), which `prisma
generate` would make but cannot here (it downloads engines): an empty PrismaClient class, a
Prisma namespace holding only error classes and a ModelName map, and every `enum` block of the
schema as a plain object of its values (what the generated client exports for enums).
Usage: python3 blind23j_prisma_standin.py SCHEMA.prisma OUT_DIR
"""

import json
import pathlib
import re
import sys

schema, out = sys.argv[1:3]
text = pathlib.Path(schema).read_text()
enums = {}
for m in re.finditer(r"^enum\s+(\w+)\s*\{(.*?)^\}", text, re.M | re.S):
    values = [
        row.split()[0]
        for row in m.group(2).splitlines()
        if row.strip() and not row.strip().startswith("//")
    ]
    enums[m.group(1)] = {v: v for v in values}
models = re.findall(r"^model\s+(\w+)\s*\{", text, re.M)
js = [
    "class PrismaClient { constructor() {} }",
    "class PrismaClientKnownRequestError extends Error {}",
    "class PrismaClientValidationError extends Error {}",
    f"const Prisma = {{ PrismaClientKnownRequestError, PrismaClientValidationError, ModelName: {json.dumps({m: m for m in models})} }};",
    "module.exports = {{ PrismaClient, Prisma, {} }};".format(
        ", ".join(f"{k}: {json.dumps(v)}" for k, v in enums.items())
    ),
]
d = pathlib.Path(out)
d.mkdir(parents=True, exist_ok=True)
(d / "default.js").write_text("\n".join(js) + "\n")
(d / "index.js").write_text("module.exports = require('./default.js');\n")
print(len(enums), "enums", len(models), "models")
