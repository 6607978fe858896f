//! A throwaway LMDB environment holding one database, for unit tests of
//! code that reads and writes a single database (the vector blocks, the
//! BM25 impact lists).
#![allow(clippy::unwrap_used)]

use heed::{CommitOrAbort, EnvOpenOptions, WithoutTls};

/// An environment in `dir` (a fresh temporary directory, 64 MiB map) with
/// one database named `name`, created and committed.
pub(crate) fn one_database<K: 'static, V: 'static>(
    dir: &std::path::Path,
    name: &str,
) -> (heed::Env<WithoutTls>, heed::Database<'static, K, V>) {
    let mut options = EnvOpenOptions::new().read_txn_without_tls();
    options.map_size(1 << 26).max_dbs(2);
    // SAFETY: a fresh temporary directory, mapped once by this test.
    #[allow(unsafe_code)]
    let env = unsafe { options.open(dir).unwrap() };
    let db = env
        .create_databases_and_commit(env.write_txn().unwrap(), |opener, wtxn| -> heed::Result<_> {
            Ok(CommitOrAbort::<_, ()>::Commit(opener.create_database::<K, V>(wtxn, Some(name))?))
        })
        .unwrap()
        .unwrap_commit();
    (env, db)
}
