#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

#[test]
fn from_config_builds_hash_and_http_without_network() {
    let e = from_config(&EmbedderConfig::Hash { dimensions: 32 }).unwrap();
    assert_eq!(e.id().provider, "hash");
    assert_eq!(e.id().dimensions, 32);
    assert!(matches!(from_config(&EmbedderConfig::Hash { dimensions: 0 }), Err(EmbedError::Config(_))));
    // Nothing listens on port 9 (discard); construction must not connect.
    let ollama = EmbedderConfig::Ollama { url: Some("http://127.0.0.1:9".into()), model: "m".into() };
    assert_eq!(from_config(&ollama).unwrap().id().provider, "ollama");
    let openai = EmbedderConfig::Openai {
        url: "http://127.0.0.1:9/v1".into(),
        model: "text-embedding-3-small".into(),
        api_key_env: None,
        dimensions: Some(512),
    };
    let e = from_config(&openai).unwrap();
    assert_eq!((e.id().provider.as_str(), e.id().dimensions), ("openai", 512));
}

#[test]
fn from_config_builtin_loads_the_model() {
    let e = from_config(&EmbedderConfig::default()).unwrap_or_else(|err| {
        #[allow(clippy::panic)]
        {
            panic!("{err}")
        }
    });
    assert_eq!(e.id().model, BUILTIN_MODEL);
    assert_eq!(e.id().dimensions, BUILTIN_DIMENSIONS);
}

#[test]
fn fingerprint_depends_on_the_identity() {
    let a = HashEmbedder::new(8).unwrap();
    let b = HashEmbedder::new(16).unwrap();
    assert_eq!(a.id().fingerprint().len(), 16);
    assert_ne!(a.id().fingerprint(), b.id().fingerprint());
}
