//! Almirah benchmark (stub).
fn main() {}
