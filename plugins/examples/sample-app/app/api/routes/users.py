from fastapi import APIRouter

from app.api.deps import CurrentUser

router = APIRouter(prefix="/users", tags=["users"])


@router.get("/")
def list_users() -> list[dict[str, str]]:
    return []


@router.get("/me")
def read_me(current_user: CurrentUser) -> dict[str, str]:
    return current_user


@router.get("/{user_id}")
def read_user(user_id: int) -> dict[str, int]:
    return {"id": user_id}
