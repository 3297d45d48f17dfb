//! Output files that never look complete when they are not: each is written
//! to a temporary file beside its target (same directory, so the same file
//! system) and renamed onto the target only when the run succeeded. A failed
//! run removes it; so does SIGINT, SIGTERM or SIGHUP (a signal thread removes
//! every temporary file still pending, then dies of the signal as it would
//! have). The target is never truncated, replaced or created before then.
//!
//! A target that is a symbolic link is resolved first: the file it points to
//! is replaced, the link stays. A target that exists and is not a regular
//! file (`/dev/null`, a FIFO) is written in place: a device is never
//! replaced by a rename.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

use crate::input::with_path;

/// Temporary files not yet renamed into place, for the signal thread.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// An output file being written: see the module documentation.
#[derive(Debug)]
pub struct PendingFile {
    tmp: PathBuf,
    target: PathBuf,
    /// The target's permissions when it existed (kept by the new file).
    perms: Option<std::fs::Permissions>,
    done: bool,
}

/// Where `path` really is: the file a symbolic link points to, or (for a
/// file that does not exist yet) its name in the resolved directory.
pub(crate) fn resolve(path: &Path) -> io::Result<PathBuf> {
    if let Ok(p) = std::fs::canonicalize(path) {
        return Ok(p);
    }
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))
        .map_err(|e| with_path(e, path))?;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let dir = std::fs::canonicalize(parent).map_err(|e| with_path(e, path))?;
    Ok(dir.join(name))
}

impl PendingFile {
    /// Creates the temporary file for `target` (nothing is done to the
    /// target itself).
    pub fn create(target: &Path) -> io::Result<(PendingFile, File)> {
        install_signal_cleanup();
        let real = resolve(target)?;
        let meta = std::fs::metadata(&real).ok();
        if meta.as_ref().is_some_and(|m| m.is_dir()) {
            // Found now, not by the rename at the end of the run.
            return Err(with_path(
                io::Error::new(io::ErrorKind::InvalidInput, "is a directory"),
                target,
            ));
        }
        if meta.as_ref().is_some_and(|m| !m.is_file()) {
            // A device, a FIFO, a socket (`-o /dev/null`, `-o >(gzip)`):
            // written in place, never replaced by a rename.
            let f = OpenOptions::new()
                .write(true)
                .open(&real)
                .map_err(|e| with_path(e, target))?;
            let p = PendingFile {
                tmp: PathBuf::new(),
                target: real,
                perms: None,
                done: true,
            };
            return Ok((p, f));
        }
        let perms = meta.map(|m| m.permissions());
        let dir = real.parent().unwrap_or(Path::new("/")).to_owned();
        let name = real
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let pid = std::process::id();
        for n in 0u32.. {
            let tmp = dir.join(format!(".{name}.irinorm-{pid}-{n}.tmp"));
            // Registered before it exists: a signal in between removes
            // nothing, one after removes it.
            pending().push(tmp.clone());
            match OpenOptions::new().write(true).create_new(true).open(&tmp) {
                Ok(f) => {
                    let p = PendingFile {
                        tmp,
                        target: real,
                        perms,
                        done: false,
                    };
                    return Ok((p, f));
                }
                Err(e) => {
                    pending().retain(|p| *p != tmp);
                    if e.kind() != io::ErrorKind::AlreadyExists || n > 1000 {
                        return Err(with_path(e, target));
                    }
                }
            }
        }
        unreachable!("the loop returns")
    }

    /// The temporary file's path.
    pub fn temp_path(&self) -> &Path {
        &self.tmp
    }

    /// Renames the temporary file onto the target (the data must be
    /// flushed).
    pub fn commit(mut self) -> io::Result<()> {
        if self.done {
            // Written in place (not a regular file).
            return Ok(());
        }
        if let Some(p) = &self.perms {
            let _ = std::fs::set_permissions(&self.tmp, p.clone());
        }
        // Under the lock: the signal thread either removes the temporary
        // file before, or finds it already renamed.
        let mut list = pending();
        std::fs::rename(&self.tmp, &self.target).map_err(|e| with_path(e, &self.target))?;
        list.retain(|p| *p != self.tmp);
        self.done = true;
        Ok(())
    }
}

impl Drop for PendingFile {
    /// Not committed: the run failed; the temporary file goes.
    fn drop(&mut self) {
        if !self.done {
            let mut list = pending();
            let _ = std::fs::remove_file(&self.tmp);
            list.retain(|p| *p != self.tmp);
        }
    }
}

/// Starts (once) the thread that removes pending temporary files on
/// SIGINT, SIGTERM and SIGHUP, then ends the process by the same signal.
fn install_signal_cleanup() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
            let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
            else {
                return;
            };
            let _ = std::thread::Builder::new()
                .name("irinorm-signals".into())
                .spawn(move || {
                    if let Some(sig) = signals.forever().next() {
                        // Held to the end: no rename can follow.
                        let list = pending();
                        for p in list.iter() {
                            let _ = std::fs::remove_file(p);
                        }
                        let _ = signal_hook::low_level::emulate_default_handler(sig);
                        std::process::exit(128 + sig);
                    }
                });
        }
    });
}

/// The identity of a file: device and inode, so that two names of one file
/// (a symbolic or hard link, `./x` and `x`) are the same.
#[cfg(unix)]
fn identity(m: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (m.dev(), m.ino())
}

#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> (u64, u64) {
    (0, 0)
}

/// One file the run reads or writes, as compared by [`check_distinct`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum Id {
    /// An existing file.
    File(u64, u64),
    /// A file to be created: its resolved path.
    New(PathBuf),
}

/// `None` for what is not a regular file (`/dev/null`, a FIFO): reading
/// and writing one are not the same data.
fn id_of_path(p: &Path) -> io::Result<Option<Id>> {
    match std::fs::metadata(p) {
        Ok(m) if m.is_file() => Ok(Some(Id::File(identity(&m).0, identity(&m).1))),
        Ok(_) => Ok(None),
        Err(_) => Ok(Some(Id::New(resolve(p)?))),
    }
}

/// A standard stream's file, when it is a regular file (`< in.txt`,
/// `>> out.txt`): pipes and terminals cannot be the same as a named file.
#[cfg(unix)]
fn id_of_fd(fd: std::os::fd::BorrowedFd<'_>) -> Option<Id> {
    let f = File::from(fd.try_clone_to_owned().ok()?);
    let m = f.metadata().ok()?;
    m.is_file().then(|| {
        let (d, i) = identity(&m);
        Id::File(d, i)
    })
}

/// Refuses a run whose output is one of its inputs, or whose two outputs
/// are one file (by device and inode, or by resolved path for files not yet
/// created; stdin and stdout count when they are regular files): writing it
/// would destroy the input, or mix the two outputs. Checked before anything
/// is opened for writing.
pub fn check_distinct(inputs: &crate::Inputs, outputs: &[(&str, &Path)]) -> io::Result<()> {
    let mut ins: Vec<(String, Id)> = Vec::new();
    for i in &inputs.list {
        match i {
            crate::Input::File(p) => {
                if let Some(id) = id_of_path(p)? {
                    ins.push((p.display().to_string(), id));
                }
            }
            #[cfg(unix)]
            crate::Input::Stdin => {
                use std::os::fd::AsFd;
                if let Some(id) = id_of_fd(io::stdin().as_fd()) {
                    ins.push(("standard input".into(), id));
                }
            }
            _ => {}
        }
    }
    let mut outs: Vec<(String, Id)> = Vec::new();
    let mut to_stdout = true;
    for (what, p) in outputs {
        if p.as_os_str() == "-" {
            continue;
        }
        if *what == "-o" {
            to_stdout = false;
        }
        if let Some(id) = id_of_path(p)? {
            outs.push((format!("{what} {}", p.display()), id));
        }
    }
    #[cfg(unix)]
    if to_stdout {
        use std::os::fd::AsFd;
        if let Some(id) = id_of_fd(io::stdout().as_fd()) {
            outs.push(("standard output".into(), id));
        }
    }
    for (k, (name, id)) in outs.iter().enumerate() {
        if let Some((iname, _)) = ins.iter().find(|(_, i)| i == id) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{name} is the input {iname}: writing it would destroy what is read"),
            ));
        }
        if let Some((other, _)) = outs[..k].iter().find(|(_, i)| i == id) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{name} is the same file as {other}: each output needs its own file"),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn committed_or_removed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.txt");
        std::fs::write(&target, "old").unwrap();
        let (p, f) = PendingFile::create(&target).unwrap();
        let tmp = p.temp_path().to_owned();
        std::fs::write(&tmp, "new").unwrap();
        drop(f);
        assert_eq!(
            std::fs::read_to_string(&target).unwrap(),
            "old",
            "untouched until commit"
        );
        drop(p);
        assert!(!tmp.exists(), "a dropped pending file is removed");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        let (p, mut f) = PendingFile::create(&target).unwrap();
        io::Write::write_all(&mut f, b"new").unwrap();
        p.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left"
        );
    }

    #[test]
    fn a_directory_is_refused_before_anything_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let e = PendingFile::create(dir.path()).unwrap_err();
        assert!(e.to_string().contains("is a directory"), "{e}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_written_in_place_never_replaced() {
        let (p, mut f) = PendingFile::create(Path::new("/dev/null")).unwrap();
        io::Write::write_all(&mut f, b"x").unwrap();
        p.commit().unwrap();
        let m = std::fs::metadata("/dev/null").unwrap();
        assert!(!m.is_file(), "/dev/null is still a device");
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_target_is_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.txt");
        let link = dir.path().join("link.txt");
        std::fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let (p, mut f) = PendingFile::create(&link).unwrap();
        io::Write::write_all(&mut f, b"new").unwrap();
        p.commit().unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new");
    }
}
