from fastapi import FastAPI

from app.api.config import settings
from app.api.routes import orders, users

app = FastAPI(title="Sample shop")
app.include_router(users.router, prefix=settings.API_V1_STR)
app.include_router(orders.router, prefix=settings.API_V1_STR)


@app.get("/healthz")
def healthz() -> dict[str, bool]:
    return {"ok": True}
