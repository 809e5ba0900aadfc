//! Session files on disk: read with a bound on their size, written atomically (a
//! temporary file in the same directory, synced, then renamed over the old one),
//! so a failed save leaves the previous session whole.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use fairdice::randomizer::{MAX_SESSION_BYTES, Session};

use crate::failure::UserError;

/// The randomizer a command names: the session saved in `resume`, or a fresh one
/// built from `spec`.
///
/// # Errors
/// Neither given, or the file unreadable.
pub fn source(
    resume: Option<&Path>,
    spec: Option<&str>,
) -> anyhow::Result<fairdice_api::randomizer::Source> {
    use fairdice_api::randomizer::Source;
    match (resume, spec) {
        (Some(path), _) => Ok(Source::Session(read(path)?)),
        (None, Some(spec)) => Ok(Source::Spec(spec.to_string())),
        (None, None) => Err(UserError::input("give a randomizer spec or --resume FILE")),
    }
}

/// A use case's error about the session in `resume` (if one was read), with the
/// file named first.
pub fn failure(resume: Option<&Path>, error: fairdice_api::Error) -> anyhow::Error {
    UserError::from_api(match resume {
        Some(path) => error.in_context(&format!("{}:", path.display())),
        None => error,
    })
}

/// A session file's text, for a use case to open; unreadable, oversized or
/// non-text files are the user's to fix (exit status 2). At most
/// [`MAX_SESSION_BYTES`] are read: no saved session is longer, and `/dev/zero`
/// is not a session.
pub fn read(path: &Path) -> anyhow::Result<String> {
    let unreadable = |e: io::Error| {
        UserError::input(format!("cannot read session file {}: {e}", path.display()))
    };
    let file = File::open(path).map_err(unreadable)?;
    let mut bytes = Vec::new();
    file.take(MAX_SESSION_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() > MAX_SESSION_BYTES {
        return Err(UserError::input(format!(
            "{}: not a saved session: it is longer than the {MAX_SESSION_BYTES} bytes the largest session takes",
            path.display()
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        UserError::input(format!(
            "{}: not a saved session: not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Writes a session file atomically: either the new session is there, complete
/// and synced, or the old file is left as it was.
pub fn save(path: &Path, session: &Session) -> anyhow::Result<()> {
    let text = session.to_json() + "\n";
    write_atomically(path, text.as_bytes(), |file, bytes| file.write_all(bytes)).with_context(
        || {
            format!(
                "cannot write session file {} (the file was left as it was)",
                path.display()
            )
        },
    )
}

/// Writes `bytes` with `write` to a temporary file next to `path`, syncs it and
/// renames it over `path`. `write` is injected so tests can make it fail.
pub fn write_atomically(
    path: &Path,
    bytes: &[u8],
    write: impl FnOnce(&mut File, &[u8]) -> io::Result<()>,
) -> io::Result<()> {
    let target = resolved(path);
    let directory = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map_or_else(|| "session".into(), |n| n.to_string_lossy().into_owned());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // The new file keeps the old one's permissions (a fresh one gets the umask's).
    if let Ok(metadata) = fs::metadata(&target) {
        builder.permissions(metadata.permissions());
    } else {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(fs::Permissions::from_mode(0o666));
        }
    }
    // On any error below the temporary file is removed when dropped.
    let mut temporary = builder.tempfile_in(&directory)?;
    write(temporary.as_file_mut(), bytes)?;
    temporary.as_file_mut().flush()?;
    temporary.as_file().sync_all()?;
    temporary.persist(&target).map_err(|e| e.error)?;
    // The rename itself is durable once the directory is synced; some file
    // systems cannot sync a directory, and the data is safe either way.
    #[cfg(unix)]
    if let Ok(directory) = File::open(&directory) {
        let _ = directory.sync_all();
    }
    Ok(())
}

/// The file a path names: a symbolic link's target, so saving through a link
/// replaces what it points to rather than the link.
fn resolved(path: &Path) -> PathBuf {
    match fs::symlink_metadata(path) {
        Ok(metadata) if metadata.file_type().is_symlink() => {
            fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files_in(directory: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(directory)
            .expect("readable")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_whole() {
        let directory = tempfile::tempdir().expect("a temporary directory");
        let path = directory.path().join("game.json");
        fs::write(&path, "the old session\n").expect("written");
        // Half the bytes reach the file, then the disk is full.
        let error = write_atomically(&path, b"the new session, longer\n", |file, bytes| {
            file.write_all(&bytes[..bytes.len() / 2])?;
            Err(io::Error::new(io::ErrorKind::StorageFull, "no space left"))
        })
        .expect_err("the write fails");
        assert_eq!(error.kind(), io::ErrorKind::StorageFull);
        assert_eq!(
            fs::read_to_string(&path).expect("readable"),
            "the old session\n"
        );
        assert_eq!(
            files_in(directory.path()),
            ["game.json"],
            "no temporary left"
        );
        // A fresh file that fails is not created at all.
        let fresh = directory.path().join("fresh.json");
        let failing = |_: &mut File, _: &[u8]| Err(io::Error::other("injected"));
        assert!(write_atomically(&fresh, b"x", failing).is_err());
        assert!(!fresh.exists());
        assert_eq!(files_in(directory.path()), ["game.json"]);
    }

    #[test]
    fn a_write_replaces_the_file_and_keeps_its_permissions() {
        let directory = tempfile::tempdir().expect("a temporary directory");
        let path = directory.path().join("game.json");
        fs::write(&path, "old").expect("written");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).expect("chmod");
        }
        write_atomically(&path, b"new", |f, b| f.write_all(b)).expect("written");
        assert_eq!(fs::read_to_string(&path).expect("readable"), "new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&path).expect("metadata").permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
            // Through a symbolic link, the target is replaced, the link kept.
            let link = directory.path().join("link.json");
            std::os::unix::fs::symlink(&path, &link).expect("a link");
            write_atomically(&link, b"newer", |f, b| f.write_all(b)).expect("written");
            assert!(
                fs::symlink_metadata(&link)
                    .expect("link")
                    .file_type()
                    .is_symlink()
            );
            assert_eq!(fs::read_to_string(&path).expect("readable"), "newer");
        }
        assert_eq!(
            files_in(directory.path()).len(),
            if cfg!(unix) { 2 } else { 1 }
        );
    }
}
