//! Key lookup order and redaction.

use super::super::keys::{KeyLookup, Secret, find_key_with};
use super::KEY;

fn gemini_lookup() -> KeyLookup {
    KeyLookup { env_vars: vec!["GEMINI_API_KEY".into(), "GOOGLE_API_KEY".into()], keyring_user: Some("gemini".into()) }
}

fn no_keyring(_: &str) -> Result<Option<String>, String> {
    Ok(None)
}

#[test]
fn environment_first_in_order_then_the_keyring() {
    let env = |var: &str| (var == "GOOGLE_API_KEY").then(|| "from-google".to_string());
    let found = find_key_with(&gemini_lookup(), env, |_| Ok(Some("from-keyring".into()))).unwrap();
    assert_eq!((found.secret.expose(), found.source.as_str()), ("from-google", "$GOOGLE_API_KEY"));

    let both = |var: &str| Some(format!("{var}-value"));
    let found = find_key_with(&gemini_lookup(), both, no_keyring).unwrap();
    assert_eq!(found.secret.expose(), "GEMINI_API_KEY-value");

    let blank = |_: &str| Some("  ".to_string());
    let found = find_key_with(&gemini_lookup(), blank, |user| Ok(Some(format!(" {user}-kr \n")))).unwrap();
    assert_eq!(found.secret.expose(), "gemini-kr");
    assert_eq!(found.source, "the OS keyring (service almirah, user gemini)");
}

#[test]
fn no_key_anywhere_or_an_unreadable_keyring_is_none() {
    assert!(find_key_with(&gemini_lookup(), |_| None, no_keyring).is_none());
    assert!(find_key_with(&gemini_lookup(), |_| None, |_| Err("keyutils: permission denied".into())).is_none());
    let lookup = KeyLookup { keyring_user: None, ..gemini_lookup() };
    assert!(find_key_with(&lookup, |_| None, |_| Ok(Some("unused".into()))).is_none());
}

#[test]
fn places_name_every_source() {
    let want = "$GEMINI_API_KEY, $GOOGLE_API_KEY or the OS keyring (service almirah, user gemini)";
    assert_eq!(gemini_lookup().places(), want);
    assert_eq!(KeyLookup { env_vars: vec!["X".into()], keyring_user: None }.places(), "$X");
}

#[test]
fn a_secret_never_prints_itself() {
    let secret = Secret::new(format!(" {KEY}\n"));
    assert_eq!(secret.expose(), KEY);
    assert_eq!(format!("{secret:?}"), "Secret(***)");
    let found = super::test_key();
    assert!(!format!("{found:?}").contains(KEY));
    assert_eq!(secret.redact(&format!("bad key {KEY}, again {KEY}")), "bad key ***, again ***");
}
