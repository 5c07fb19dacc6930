"""Types of the extension module (the Rust host)."""

from os import PathLike
from typing import Any, Callable, Dict, List, Optional, Union

class FiletoolsError(Exception): ...

class TextBlock:
    text: str
    type: str  # "text"
    def __init__(self, text: str) -> None: ...

class ImageBlock:
    type: str  # "image"
    mime_type: str
    data: bytes
    base64: str
    width: int
    height: int

class ToolResult:
    is_error: bool
    text: str
    content: List[Union[TextBlock, ImageBlock]]
    metadata_json: str
    structured_content: Optional[Dict[str, Any]]
    def to_json(self) -> str: ...

class Precondition:
    kind: str  # "any", "absent" or "matches"
    size: Optional[int]
    mtime_ns: Optional[int]
    sha256: Optional[str]
    def holds(
        self,
        size: Optional[int],
        mtime_ns: int = 0,
        content: Union[bytes, Callable[[], bytes], None] = None,
    ) -> bool: ...

class Session:
    def call(self, tool: str, arguments: str) -> ToolResult: ...
    def save(self) -> str: ...
    def restore(self, state: str) -> None: ...
    def forget_outputs(self) -> None: ...
    memory_bytes: int

class Tools:
    def __init__(
        self,
        root: Union[str, PathLike[str], None] = None,
        *,
        fs: Any = None,
        read_only: bool = False,
        config_json: Optional[str] = None,
        memory_limit: Optional[int] = None,
        call_timeout: Optional[float] = None,
        cache_dir: Union[str, PathLike[str], None] = None,
        state_dir: Union[str, PathLike[str], None] = None,
    ) -> None: ...
    def session(self) -> Session: ...
    def definitions_json(self, format: Optional[str] = None) -> str: ...
    @staticmethod
    def formats() -> List[str]: ...
    load_source: str
    root: Optional[PathLike[str]]
    cache_refusal: Optional[str]
    state_refusal: Optional[str]
