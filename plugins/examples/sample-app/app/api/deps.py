from typing import Annotated

from fastapi import Depends, HTTPException
from fastapi.security import OAuth2PasswordBearer

oauth2_scheme = OAuth2PasswordBearer(tokenUrl="/api/v1/login")


def get_current_user(token: Annotated[str, Depends(oauth2_scheme)]) -> dict[str, str]:
    if not token:
        raise HTTPException(status_code=401)
    return {"token": token}


CurrentUser = Annotated[dict[str, str], Depends(get_current_user)]
