from fastapi import APIRouter, Depends

from app.api.deps import get_current_user

router = APIRouter(prefix="/orders", tags=["orders"], dependencies=[Depends(get_current_user)])


@router.get("/")
def list_orders() -> list[dict[str, int]]:
    return []


@router.post("/")
def create_order() -> dict[str, bool]:
    return {"created": True}


@router.delete("/{order_id}")
def cancel_order(order_id: int) -> None:
    return None
