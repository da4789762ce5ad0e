//! Writing output files: whole or not at all, with the modes a user expects, and never
//! replacing something that is not a regular file.

use std::io::Write;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use dominofit::escape::terminal;
use dominofit::interrupt::TempGuard;

fn shown(path: &Path) -> String {
    terminal(&path.display().to_string())
}

/// Where writing `path` really goes: through symbolic links to the file they name, so
/// that a link stays a link.
fn resolve(path: &Path) -> Result<PathBuf> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(path)
            .with_context(|| format!("{} is a symbolic link to nothing", shown(path))),
        _ => Ok(path.to_path_buf()),
    }
}

/// Writes `bytes` to `path`.
///
/// A regular file (or a new one) is written through a temporary file next to it that is
/// renamed into place, so a reader never sees half a file and an error or Ctrl-C leaves
/// nothing behind; a new file gets the mode the umask allows, an existing one keeps its
/// mode. A device or a pipe (`-o /dev/null`, `-o /dev/stdout`) is written through, never
/// replaced; a directory is refused.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let target = resolve(path)?;
    let existing = std::fs::metadata(&target).ok();
    if let Some(meta) = &existing {
        let kind = meta.file_type();
        if kind.is_dir() {
            bail!("{} is a directory", shown(path));
        }
        if kind.is_char_device() || kind.is_fifo() || kind.is_block_device() || kind.is_socket() {
            if kind.is_block_device() || kind.is_socket() {
                bail!(
                    "{} is a device or socket, not a file; refusing to write to it",
                    shown(path)
                );
            }
            let mut out = std::fs::OpenOptions::new()
                .write(true)
                .open(&target)
                .with_context(|| format!("cannot write {}", shown(path)))?;
            return out
                .write_all(bytes)
                .and_then(|()| out.flush())
                .with_context(|| format!("cannot write {}", shown(path)));
        }
    }
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let (mut file, guard) = TempGuard::create(|| {
        // Mode 0666 less the umask, as any program's new file.
        let file = tempfile::Builder::new()
            .prefix(".dominofit-")
            .permissions(std::fs::Permissions::from_mode(0o666))
            .tempfile_in(&dir)?;
        let path = file.path().to_path_buf();
        Ok((file, path))
    })
    .with_context(|| format!("cannot write in {}", shown(&dir)))?;
    file.write_all(bytes)
        .and_then(|()| file.flush())
        .with_context(|| format!("cannot write {}", shown(path)))?;
    if let Some(meta) = &existing {
        std::fs::set_permissions(file.path(), meta.permissions())
            .with_context(|| format!("cannot write {}", shown(path)))?;
    }
    file.persist(&target)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot write {}", shown(path)))?;
    guard.keep();
    Ok(())
}

/// Makes sure `dir` is (or can be made) a directory that files can be written in, before
/// any long work whose results would go there.
pub fn check_output_dir(dir: &Path) -> Result<()> {
    if dir.exists() && !dir.is_dir() {
        bail!("{} exists and is not a directory", shown(dir));
    }
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create directory {}", shown(dir)))?;
    let (_, guard) = TempGuard::create(|| {
        let file = tempfile::Builder::new()
            .prefix(".dominofit-check-")
            .tempfile_in(dir)?;
        let path = file.path().to_path_buf();
        Ok((file, path))
    })
    .with_context(|| format!("cannot write in {}", shown(dir)))?;
    drop(guard);
    Ok(())
}
