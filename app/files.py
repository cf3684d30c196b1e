"""Write a file without losing anything: atomic, through symlinks, keeping the permissions it had.

A page is written to a temporary file next to its destination and renamed over it, so a failed write
never leaves half a page. Renaming replaces whatever the name pointed at, so the destination is checked
first: a symlink is followed to its target (the link stays a link), anything that is not a regular file
or a new name is refused, a read-only file is kept unless the caller says to overwrite it, and a file with
other hard links is refused (a rename would silently split them). The new file takes the old one's mode, owner
and extended attributes, so its POSIX ACL (stored as the xattr system.posix_acl_access) survives too.
"""

import errno
import os
import stat
import tempfile
from pathlib import Path


class Refused(ValueError):
    """The destination cannot take the file without losing something; the message says what and why."""


def shown(path) -> str:
    """`path` as one printable line: a name's undecodable bytes as \\xff, control characters as \\n or \\x1b.

    A file name may hold any byte but "/" and NUL; printed raw, a newline splits the message, an escape
    sequence drives the terminal and a surrogate-escaped byte cannot be encoded to a strict UTF-8 stdout.
    """
    text = os.fsdecode(os.fspath(path)) if isinstance(path, bytes | os.PathLike) else str(path)
    out = []
    for c in text:
        if 0xDC80 <= ord(c) <= 0xDCFF:  # os.fsdecode's surrogateescape: the byte it could not decode
            out.append(f"\\x{ord(c) - 0xDC00:02x}")
        elif c.isprintable():
            out.append(c)
        else:
            out.append(repr(c)[1:-1])
    return "".join(out)


def destination(path: str | os.PathLike, overwrite: bool = False) -> tuple[Path, os.stat_result | None]:
    """The real path a write to `path` must replace, and its current status (None for a new file)."""
    if not str(path):
        raise Refused("cannot write to an empty path: name a file such as explainer.html")
    name = os.path.basename(os.fspath(path))
    if name in ("", ".", ".."):
        # realpath drops a trailing "/" or "/.", so "new.html/" would become a file called new.html.
        raise Refused(f"cannot write {shown(path)}: it names a folder (it ends in {'/' if not name else name!r}); "
                      f"name a file such as {shown(os.path.join(path, 'explainer.html'))}")
    target = Path(os.path.realpath(path))
    try:
        st = os.stat(target)
    except FileNotFoundError:
        if not target.parent.is_dir():
            raise Refused(f"cannot write {shown(path)}: the folder {shown(target.parent)} does not exist") from None
        return target, None
    if stat.S_ISDIR(st.st_mode):
        raise Refused(f"cannot write {shown(path)}: it is a folder; name a file inside it, such as "
                      f"{shown(Path(path) / 'explainer.html')}")
    if not stat.S_ISREG(st.st_mode):
        raise Refused(f"cannot write {shown(path)}: it is not a regular file (a device, pipe or socket), so it is kept")
    if st.st_nlink > 1:
        raise Refused(f"cannot write {shown(path)}: it has {st.st_nlink} hard links, which a new file would split; "
                      "remove the other links or choose another name")
    if not overwrite and not st.st_mode & stat.S_IWUSR:
        raise Refused(f"cannot write {shown(path)}: it is read-only; pass --overwrite to replace it anyway")
    return target, st


def write_text(path: str | os.PathLike, text: str, overwrite: bool = False) -> Path:
    """Write `text` to `path` atomically (see the module doc); return the real path written."""
    return write_bytes(path, text.encode("utf-8"), overwrite)


def write_bytes(path: str | os.PathLike, data: bytes, overwrite: bool = False) -> Path:
    """Write `data` to `path` atomically (see the module doc); return the real path written."""
    target, old = destination(path, overwrite)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if old is None:
            # mkstemp makes the file private (0600); a new page for a web host is readable like any new file.
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        else:
            os.chmod(tmp, stat.S_IMODE(old.st_mode))
            if (old.st_uid, old.st_gid) != (os.getuid(), os.getgid()):
                try:
                    os.chown(tmp, old.st_uid, old.st_gid)
                except PermissionError:
                    pass  # only the owner's own files can keep their owner; the mode is kept either way
            copy_xattrs(target, tmp)  # after chmod and chown, which would rewrite the ACL and may drop capabilities
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def copy_xattrs(src, dst):
    """Give `dst` every extended attribute of `src`: its ACL, SELinux label, user.* notes.

    Only "this filesystem has no xattrs" is ignored; any other failure is raised, since a file that silently
    lost its ACL would be readable by people its owner had shut out (or shut out people it had let in).
    """
    try:
        names = os.listxattr(src)
    except OSError as e:
        if e.errno in (errno.ENOTSUP, errno.EOPNOTSUPP):
            return
        raise
    for name in names:
        try:
            os.setxattr(dst, name, os.getxattr(src, name))
        except OSError as e:
            if e.errno not in (errno.ENOTSUP, errno.EOPNOTSUPP):
                raise
