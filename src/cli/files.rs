//! Files: one board picked from a workload, and output files written whole or not at all,
//! with the modes a user expects, never replacing something that is not a regular file.

use std::io::Write;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::errors::UsageError;
use dominofit::escape::terminal;
use dominofit::interrupt::TempGuard;
use dominofit::puzzle::Instance;

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

/// The descriptor a path names when it is one of the process's own open files
/// (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`): writing there must go
/// to that open file (a pipe, or a file opened for appending), never replace it.
fn open_descriptor(path: &Path) -> Option<i32> {
    let text = path.to_str()?;
    match text {
        "/dev/stdout" => Some(1),
        "/dev/stderr" => Some(2),
        _ => text
            .strip_prefix("/dev/fd/")
            .or_else(|| text.strip_prefix("/proc/self/fd/"))
            .and_then(|n| n.parse().ok()),
    }
}

/// Writes `bytes` to `path`: see [`write_with`].
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    write_with(path, &mut |out| Ok(out.write_all(bytes)?))
}

/// Writes what `fill` writes to `path`, streamed (nothing is held whole in memory).
///
/// A regular file (or a new one) is written through a temporary file next to it that is
/// renamed into place, so a reader never sees half a file and an error or Ctrl-C leaves
/// nothing behind; a new file gets the mode the umask allows, an existing one keeps its
/// mode. A character device or a pipe (`-o /dev/null`), and the process's own open files
/// (`-o /dev/stdout`), are written through, never replaced; a directory, a block device
/// or a socket is refused.
pub fn write_with(path: &Path, fill: &mut dyn FnMut(&mut dyn Write) -> Result<()>) -> Result<()> {
    let cannot = || format!("cannot write {}", shown(path));
    let mut through = |file: std::fs::File| -> Result<()> {
        let mut out = std::io::BufWriter::new(file);
        fill(&mut out)?;
        out.flush().with_context(cannot)
    };
    if let Some(fd) = open_descriptor(path) {
        use std::os::fd::BorrowedFd;
        if fd < 0 {
            bail!("{} names no open file", shown(path));
        }
        // SAFETY: the descriptor is only borrowed to be duplicated (an unopened one
        // makes the duplication fail); the duplicate is owned by the `File`.
        let borrowed = unsafe { BorrowedFd::borrow_raw(fd) };
        let owned = borrowed.try_clone_to_owned().with_context(cannot)?;
        return through(std::fs::File::from(owned));
    }
    let target = resolve(path)?;
    let existing = std::fs::metadata(&target).ok();
    if let Some(meta) = &existing {
        let kind = meta.file_type();
        if kind.is_dir() {
            bail!("{} is a directory", shown(path));
        }
        if kind.is_block_device() || kind.is_socket() {
            bail!(
                "{} is a block device or a socket, not a file; refusing to write to it",
                shown(path)
            );
        }
        if kind.is_char_device() || kind.is_fifo() {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(&target)
                .with_context(cannot)?;
            return through(file);
        }
    }
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let (file, guard) = TempGuard::create(|| {
        // Mode 0666 less the umask, as any program's new file.
        let file = tempfile::Builder::new()
            .prefix(".dominofit-")
            .permissions(std::fs::Permissions::from_mode(0o666))
            .tempfile_in(&dir)?;
        let path = file.path().to_path_buf();
        Ok((file, path))
    })
    .with_context(|| format!("cannot write in {}", shown(&dir)))?;
    let mut out = std::io::BufWriter::new(file);
    fill(&mut out)?;
    let file = out
        .into_inner()
        .map_err(|e| e.into_error())
        .with_context(cannot)?;
    if let Some(meta) = &existing {
        std::fs::set_permissions(file.path(), meta.permissions()).with_context(cannot)?;
    }
    file.persist(&target)
        .map_err(|e| e.error)
        .with_context(cannot)?;
    guard.keep();
    Ok(())
}

/// The file name of each board (its name made safe, [`dominofit::escape::file_stem`],
/// then `suffix`). Names that differ can map to one file name (`a/b` and `a_b`): that is
/// refused before anything is written, rather than one overwriting the other.
pub fn one_file_per_board(instances: &[Instance], suffix: &str) -> Result<Vec<String>> {
    let mut owner: std::collections::BTreeMap<String, &str> = Default::default();
    let mut names = Vec::with_capacity(instances.len());
    for instance in instances {
        let file = format!("{}{suffix}", dominofit::escape::file_stem(&instance.name));
        if let Some(first) = owner.insert(file.clone(), &instance.name) {
            bail!(
                "boards `{}` and `{}` would both be written to {file}; rename one \
                 (file names keep letters, digits, `-`, `_` and `.` of a name, and \
                 its first {} characters)",
                terminal(first),
                terminal(&instance.name),
                dominofit::escape::MAX_NAME_CHARS
            );
        }
        names.push(file);
    }
    Ok(names)
}

/// Makes sure `dir` is (or can be made) a directory that files can be written in, and
/// that none of `names` in it is something a file cannot replace, before any long work
/// whose results would go there.
pub fn check_output_dir(dir: &Path, names: &[&str]) -> Result<()> {
    if !dir.exists() && std::fs::symlink_metadata(dir).is_ok() {
        bail!(
            "{} is a symbolic link to a path that does not exist",
            shown(dir)
        );
    }
    if dir.exists() && !dir.is_dir() {
        bail!("{} exists and is not a directory", shown(dir));
    }
    for name in names {
        let path = dir.join(name);
        if std::fs::metadata(&path).is_ok_and(|m| !m.is_file()) {
            bail!("{} exists and is not a file", shown(&path));
        }
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

/// The board of `instances` (read from `file`) named `name`, or the only one.
pub fn one_board<'a>(
    file: &str,
    instances: &'a [Instance],
    name: Option<&str>,
) -> Result<&'a Instance> {
    match (name, instances) {
        (None, [one]) => Ok(one),
        (None, many) => Err(UsageError(format!(
            "{} holds {} boards; pick one with --instance NAME (the first is `{}`)",
            terminal(file),
            many.len(),
            many.first().map_or(String::new(), |i| terminal(&i.name))
        ))
        .into()),
        (Some(name), all) => all.iter().find(|i| i.name == name).with_context(|| {
            format!(
                "{} holds no board named `{}`",
                terminal(file),
                terminal(name)
            )
        }),
    }
}
