"""Place each fastify-decorators route a runtime run found at its decorator's line.

fastify-decorators registers a controller's routes at bootstrap, long after the class's module
ran, so the onRoute hook's stack does not show the declaring line. This reads the controllers
(`@Controller({ route: X })`, then `@GET(Y, ...)` and the other verbs, X and Y a string literal
or a name exported as a string from src/constants/*.ts) and writes the runtime's names, each at
the one decorator line whose controller route + method route gives it; a runtime name with no
such line is printed on stderr and left out (at dehix_fastify's commit the 7 plugin routes,
@fastify/swagger-ui's and @fastify/cors's, placed by hand at their register calls). Never runs the packs.

Usage: python fastify_decorators_place.py CHECKOUT RAW_JSON > items.json
"""

import json
import re
import sys
from pathlib import Path

NAME = r"([A-Za-z_0-9]+|\"[^\"]*\")"


def main(checkout: Path, raw: Path) -> None:
    consts: dict[str, set[str]] = {}
    for f in sorted((checkout / "src/constants").glob("*.ts")):
        for m in re.finditer(r'export const (\w+)\s*=\s*"([^"]*)"', f.read_text()):
            consts.setdefault(m[1], set()).add(m[2])

    def value(token: str) -> str:
        if token.startswith('"'):
            return token.strip('"')
        (found,) = consts[token]  # one value, or the truth is not sure
        return found

    placed: dict[str, list[tuple[str, int]]] = {}
    for f in sorted((checkout / "src/controllers").glob("*.ts")):
        base = ""
        for number, line in enumerate(f.read_text().splitlines(), 1):
            if m := re.search(r"@Controller\(\{\s*route:\s*" + NAME, line):
                base = value(m[1])
            elif m := re.search(r"@(GET|POST|PUT|DELETE|PATCH)\(\s*" + NAME, line):
                url = (base + value(m[2])).rstrip("/") or "/"
                placed.setdefault(f"{m[1]} {url}", []).append(
                    (str(f.relative_to(checkout)), number)
                )
    items = []
    for entry in json.loads(raw.read_text()):
        for method in entry["methods"]:
            name = f"{method} {entry['url'].rstrip('/') or '/'}"
            if method == "HEAD" or any(i["name"] == name for i in items):
                continue
            if name not in placed:
                print(f"not a controller route: {name}", file=sys.stderr)
                continue
            files = sorted({file for file, _ in placed[name]})
            items.append(
                {
                    "name": name,
                    "file": placed[name][0][0],
                    "line": placed[name][0][1],
                    "files": files,
                }
            )
    print(json.dumps(sorted(items, key=lambda i: i["name"]), indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
