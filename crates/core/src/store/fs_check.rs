//! Refuse to put the index on a network or cloud-synced filesystem: LMDB's
//! locking and memory map are unsafe there (LMDB documentation, "Caveats").

use std::path::Path;

/// What kind of filesystem a folder is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FsClass {
    /// A local disk filesystem.
    Local,
    /// NFS.
    Nfs,
    /// SMB or CIFS.
    Smb,
    /// A folder that a cloud client synchronises (Dropbox, OneDrive, ...).
    CloudSync,
    /// Could not be told; treated as local.
    Unknown,
}

impl FsClass {
    /// The name to show when the class is not safe for LMDB.
    pub fn network_name(self) -> Option<&'static str> {
        match self {
            FsClass::Nfs => Some("NFS"),
            FsClass::Smb => Some("SMB/CIFS"),
            FsClass::CloudSync => Some("cloud-synced"),
            FsClass::Local | FsClass::Unknown => None,
        }
    }
}

const NFS_SUPER_MAGIC: u64 = 0x6969;
const SMB_SUPER_MAGIC: u64 = 0x517B;
const CIFS_MAGIC_NUMBER: u64 = 0xFF53_4D42;
const SMB2_MAGIC_NUMBER: u64 = 0xFE53_4D42;

/// Classify a Linux `statfs.f_type` magic number (values from `linux/magic.h`).
pub fn classify_filesystem(magic: u64) -> FsClass {
    match magic {
        NFS_SUPER_MAGIC => FsClass::Nfs,
        SMB_SUPER_MAGIC | CIFS_MAGIC_NUMBER | SMB2_MAGIC_NUMBER => FsClass::Smb,
        _ => FsClass::Local,
    }
}

const SYNCED_FOLDERS: [&str; 6] =
    ["Dropbox", "OneDrive", "Google Drive", "GoogleDrive", "iCloud Drive", "Mobile Documents"];

/// Classify the filesystem holding `path` (which must exist), by its path
/// (well-known synced folder names) and, on Linux, its `statfs` magic.
/// `ALMIRAH_ALLOW_NETWORK_FS=1` turns the check off.
pub fn classify_path(path: &Path) -> FsClass {
    if std::env::var_os("ALMIRAH_ALLOW_NETWORK_FS").is_some_and(|v| v == "1") {
        return FsClass::Local;
    }
    let synced = path.components().any(|c| {
        let name = c.as_os_str().to_string_lossy();
        SYNCED_FOLDERS.iter().any(|s| name == *s || name.starts_with(&format!("{s} -")))
    });
    if synced {
        return FsClass::CloudSync;
    }
    statfs_class(path)
}

/// The class of the filesystem holding `path` from the OS alone (Linux
/// `statfs`; `Unknown` elsewhere), ignoring synced-folder names and the
/// `ALMIRAH_ALLOW_NETWORK_FS` override. The watcher uses it to poll network shares.
pub fn filesystem_class(path: &Path) -> FsClass {
    statfs_class(path)
}

#[cfg(target_os = "linux")]
fn statfs_class(path: &Path) -> FsClass {
    match rustix::fs::statfs(path) {
        #[allow(clippy::unnecessary_cast)]
        Ok(stat) => classify_filesystem(stat.f_type as u64),
        Err(_) => FsClass::Unknown,
    }
}

#[cfg(not(target_os = "linux"))]
fn statfs_class(_path: &Path) -> FsClass {
    FsClass::Unknown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn network_magics_are_refused_and_local_ones_accepted() {
        assert_eq!(classify_filesystem(0x6969), FsClass::Nfs);
        assert_eq!(classify_filesystem(0xFF53_4D42), FsClass::Smb);
        assert_eq!(classify_filesystem(0xEF53), FsClass::Local); // ext4
        assert_eq!(FsClass::Nfs.network_name(), Some("NFS"));
        assert_eq!(FsClass::Local.network_name(), None);
    }

    #[test]
    fn synced_folder_paths_are_refused() {
        assert_eq!(classify_path(Path::new("/home/a/Dropbox/almirah")), FsClass::CloudSync);
        assert_eq!(classify_path(Path::new("/home/a/OneDrive - Acme/x")), FsClass::CloudSync);
    }
}
