"""Place each route a routing-controllers runtime run found (routing_controllers_routes.js) at
the line that declares it. routing-controllers registers the actions of its controllers when
`useExpressServer` runs, so the router stack shows no declaring line: this reads the controller
files of each service (the folder `controllers/` beside the service module, as its glob says)
for `@JsonController('/x')`/`@Controller('/x')` and the verb decorators (`@Get('/y')`...,
string literals only), and places each runtime name at the one decorator line whose controller
route + action route ends it, the rest of the path being that service's prefix (one per
service, checked equal for every route of it); a route the app's own code registers
(`app.get('/health', ...)`) at that call in the service module. A runtime name with no such line
is printed on stderr and left out. Never runs the packs.

Usage: python routing_controllers_place.py CHECKOUT RAW_JSON > items.json
"""

import json
import re
import sys
from pathlib import Path

CONTROLLER = re.compile(r"@(?:JsonController|Controller)\(\s*(?:'([^']*)'|\"([^\"]*)\")?\s*[,)]")
VERB = re.compile(r"@(Get|Post|Put|Patch|Delete|Head|All)\(\s*(?:'([^']*)'|\"([^\"]*)\")?\s*[,)]")
APP_ROUTE = re.compile(r"\bapp\.(get|post|put|patch|delete)\(\s*'([^']*)'")


def served(path: str) -> str:
    return path.rstrip("/") or "/"  # Express's non-strict routing: `/x/` is `/x`


def main(checkout: Path, raw: Path) -> None:
    data = json.loads(raw.read_text())
    items: dict[str, dict[str, object]] = {}
    prefixes: dict[str, set[str]] = {}
    for route in data["routes"]:
        module = route["service"].split(":")[0]
        service_file = checkout / module
        folder = service_file.parent / "controllers"
        candidates: list[tuple[str, str, int]] = []  # (controller + action path, file, line)
        for f in sorted(folder.rglob("*Controller.ts")):
            base = ""
            for number, line in enumerate(f.read_text().splitlines(), 1):
                if m := CONTROLLER.search(line):
                    base = m[1] or m[2] or ""
                elif m := VERB.search(line):
                    method = m[1].upper()
                    candidates.append(
                        (
                            f"{method} {base}{m[2] or m[3] or ''}",
                            str(f.relative_to(checkout)),
                            number,
                        )
                    )
        for number, line in enumerate(service_file.read_text().splitlines(), 1):
            if m := APP_ROUTE.search(line):
                candidates.append((f"{m[1].upper()} {m[2]}", module, number))
        for method in route["methods"]:
            name = f"{method} {served(route['path'])}"
            found = []
            for declared, file, number in candidates:
                verb, _, path = declared.partition(" ")
                if verb != method:
                    continue
                tail = served(path)
                full = served(route["path"])
                if full == tail or (tail != "/" and full.endswith(tail)):
                    prefix = full[: len(full) - len(tail)] if full != tail else ""
                    if file == module:
                        prefix = ""
                    found.append((file, number, prefix, tail))
            full = served(route["path"])
            exact = [
                f
                for f in found
                if f[2] + (f[3] if f[3] != "/" else "") == full or (not f[2] and f[3] == full)
            ]
            if len(exact) != 1:
                print(f"not placed once: {name} ({route['service']}): {exact}", file=sys.stderr)
                continue
            file, number, prefix, _ = exact[0]
            if file != module:
                prefixes.setdefault(route["service"], set()).add(prefix)
            if name in items:
                items[name]["files"] = sorted({*items[name]["files"], file})  # type: ignore[misc]
                continue
            items[name] = {"name": name, "file": file, "line": number, "files": [file]}
    for service, found in prefixes.items():
        print(f"{service}: prefix {sorted(found)}", file=sys.stderr)
        assert len(found) == 1, (service, found)
    json.dump(sorted(items.values(), key=lambda i: str(i["name"])), sys.stdout, indent=1)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
