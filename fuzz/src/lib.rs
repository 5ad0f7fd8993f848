//! Shared properties of skein's fuzz targets; see `props.rs` and `README.md`.

#[path = "props.rs"]
mod props_impl;

pub use props_impl::*;
