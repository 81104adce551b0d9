"""Files uploaded in a modal, as Discord sends them: the ``FileUpload`` component (type 19).

A modal may hold a file upload, always inside a label (type 18). When the member submits it,
Discord echoes the upload back as ``{"type": 19, "custom_id": ..., "values": [attachment ids]}``
and puts each file, already on its CDN, in ``data.resolved.attachments`` (as for an attachment
option of a command). Here the files are served by the fake's own CDN (``FakeDiscord.add_file``,
127.0.0.1), where ``discord.Attachment.read`` downloads them.

:func:`file_uploads` lists a modal's uploads for the harness, :func:`answer_upload` is the
submitted component, :func:`resolve_uploads` the resolved part, and :func:`upload_problems`
what Discord would refuse in a modal's upload (checked with the modal, ``validate``). At the
console, ``!submit image:face.png`` sends a local file in the upload named ``image``
(:func:`typed_files`).
"""

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

JSON = dict[str, Any]
FILE_UPLOAD = 19
LABEL = 18
MAX_FILES = 10


def file_uploads(modal: JSON) -> list[JSON]:
    """A modal's file uploads as {custom_id, label, required, min_values, max_values}."""
    found: list[JSON] = []
    for top in modal.get("components") or []:
        inner = top.get("component")
        if top.get("type") == LABEL and isinstance(inner, dict) and inner.get("type") == FILE_UPLOAD:
            found.append(
                {
                    "custom_id": inner["custom_id"],
                    "label": top.get("label") or inner["custom_id"],
                    "required": inner.get("required", True) is not False,
                    "min_values": inner.get("min_values", 1),
                    "max_values": inner.get("max_values", 1),
                }
            )
    return found


def check_files(modal: JSON, files: Mapping[str, Sequence[JSON]]) -> list[str]:
    """What a member could not send: files for no upload, too many or too few, a required one
    left empty (the client refuses to submit such a form)."""
    uploads = {u["custom_id"]: u for u in file_uploads(modal)}
    problems = [f"modal has no file upload {key!r}" for key in files if key not in uploads]
    for custom_id, upload in uploads.items():
        count = len(files.get(custom_id, ()))
        if count == 0 and not upload["required"]:
            continue
        low = upload["min_values"] if upload["min_values"] is not None else 1
        high = upload["max_values"] if upload["max_values"] is not None else 1
        if not low <= count <= high:
            problems.append(f"file upload {custom_id!r} takes {low}..{high} files, got {count}")
    return problems


def answer_upload(component: JSON, files: Mapping[str, Sequence[JSON]]) -> JSON:
    """The submitted upload: its custom id and the ids of the files sent in it."""
    sent = files.get(component["custom_id"], ())
    answer: JSON = {
        "type": FILE_UPLOAD,
        "custom_id": component["custom_id"],
        "values": [str(f["id"]) for f in sent],
    }
    if component.get("id") is not None:
        answer["id"] = component["id"]
    return answer


def resolve_uploads(data: JSON, files: Mapping[str, Sequence[JSON]]) -> None:
    """Put every file sent in ``data.resolved.attachments``, keyed by id, as Discord does."""
    attachments = {str(f["id"]): f for sent in files.values() for f in sent}
    if attachments:
        data.setdefault("resolved", {}).setdefault("attachments", {}).update(attachments)


def upload_problems(component: JSON, where: str) -> list[str]:
    """A file upload inside a label: a custom id, and 0-10 / 1-10 files with min <= max."""
    problems: list[str] = []
    custom_id = component.get("custom_id")
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= 100:
        problems.append(f"{where}: a file upload needs a custom_id of 1-100 characters")
    low, high = component.get("min_values", 1), component.get("max_values", 1)
    low = 1 if low is None else low
    high = 1 if high is None else high
    if not (isinstance(low, int) and isinstance(high, int) and 0 <= low <= high <= MAX_FILES and high >= 1):
        problems.append(
            f"{where}: a file upload's min_values {low} / max_values {high} must be 0-10 and 1-10"
        )
    return problems


def typed_files(modal: JSON, typed: str, attach: Callable[[Path], JSON]) -> tuple[str, dict[str, list[JSON]]]:
    """The console's ``!submit`` text without its uploads, and the files they name: each
    ``upload:path`` (custom id or label; quoted when the path has spaces), served by ``attach``."""
    files: dict[str, list[JSON]] = {}
    for upload in file_uploads(modal):
        names = "|".join(re.escape(str(upload[key])) for key in ("custom_id", "label"))
        pattern = re.compile(rf'(?i)(?:^|\s)(?:{names}):("[^"]+"|\S+)')
        for found in list(pattern.finditer(typed)):
            path = Path(found[1].strip('"')).expanduser()
            if not path.is_file():
                raise ValueError(f"{upload['custom_id']}: no such file {str(path)!r}")
            files.setdefault(upload["custom_id"], []).append(attach(path))
        typed = pattern.sub(" ", typed).strip()
    return typed, files
