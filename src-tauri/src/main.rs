//! `almirah-desktop`: the app. Run with `__extract FILE` it is the
//! extraction child process the library uses to guard third-party parsers;
//! run with `mcp` it serves the app's library to another assistant over
//! MCP on stdin/stdout (the Settings page shows how to register it).

#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use std::path::PathBuf;
use std::process::ExitCode;

/// mimalloc keeps freed memory for reuse: the builtin embedder's forward
/// passes allocate and free tens of MB per batch, which the system
/// allocator returns to the kernel and faults back in (about a third of
/// embedding time on two cores; 7.4 -> 11.1 chunks/s measured with
/// `examples/embed_speed`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    match args.next() {
        Some(a) if a == "__extract" => {
            let path = args.next().map(PathBuf::from).unwrap_or_default();
            return ExitCode::from(almirah_core::update::extract_child_main(&path) as u8);
        }
        Some(a) if a == "mcp" => return serve_mcp(),
        _ => {}
    }
    disable_dmabuf_renderer();
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    let locations = almirah_desktop::Locations {
        bundled_model: bundled_model(),
        extractor_program: std::env::current_exe().ok(),
        ..Default::default()
    };
    match almirah_desktop::run(&locations) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: Almirah could not start its window: {e}");
            eprintln!("(no display? the command-line `almirah` works without one)");
            ExitCode::FAILURE
        }
    }
}

/// `almirah-desktop mcp`: the app's library over MCP on stdio (stdout
/// carries only MCP messages; logs go to stderr).
fn serve_mcp() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    let locations = almirah_desktop::Locations { bundled_model: bundled_model(), ..Default::default() };
    match almirah_desktop::commands::mcp::serve_stdio(&locations) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// WebKitGTK's DMA-BUF renderer draws blank windows on some GPU drivers
/// (NVIDIA, virtual machines); turn it off unless the user chose.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn disable_dmabuf_renderer() {
    if std::env::var_os("WEBKIT_DISABLE_DMABUF_RENDERER").is_none() {
        // SAFETY: called first thing in main, before any thread exists, so
        // no other thread can read the environment concurrently.
        unsafe { std::env::set_var("WEBKIT_DISABLE_DMABUF_RENDERER", "1") };
    }
}

#[cfg(not(target_os = "linux"))]
fn disable_dmabuf_renderer() {}

/// The built-in embedder's weights inside the installed package
/// (`/usr/lib/Almirah/models/…` from the .deb), next to the binary.
fn bundled_model() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    [dir.join("../lib/Almirah/models/all-MiniLM-L6-v2"), dir.join("models/all-MiniLM-L6-v2")]
        .into_iter()
        .find(|d| d.join("model.safetensors").is_file())
}
