//! Chit-chat: greetings, thanks, help, goodbyes and acknowledgements, in
//! English and common Hinglish.
//!
//! Rule: a message is chit-chat when it has at most [`MAX_WORDS`] words,
//! **every** word is in the small chit-chat vocabulary below, and at least one
//! word says which kind it is. One policy word ("leave", "fee", "kitne") is
//! enough to make it a real question: "thanks, and how many days of leave do
//! I get?" is not chit-chat.

use std::fmt;

/// Longer messages are never chit-chat.
pub(super) const MAX_WORDS: usize = 8;

const HELP: &[&str] = &["help", "madad"];
const THANKS: &[&str] = &[
    "thanks",
    "thank",
    "thankyou",
    "thx",
    "ty",
    "tq",
    "shukriya",
    "dhanyavaad",
    "dhanyavad",
    "dhanyawad",
    "dhanyawaad",
];
const HOW_ARE_YOU: &[&str] = &["kaise", "kaisi", "hru", "sup", "wassup"];
const GREETINGS: &[&str] =
    &["hi", "hii", "hello", "helo", "hey", "hiya", "namaste", "namaskar", "morning", "afternoon", "evening", "gm"];
const BYE: &[&str] = &["bye", "goodbye", "cya", "tata", "alvida", "later", "night", "gn"];
const ACK: &[&str] = &[
    "ok", "okay", "okk", "k", "theek", "thik", "accha", "acha", "achha", "great", "cool", "nice", "fine", "sure",
    "yes", "haan", "noted", "perfect", "awesome", "alright", "good", "got", "done",
];
const FILLER: &[&str] = &[
    "a", "lot", "so", "much", "very", "sir", "madam", "maam", "ji", "bhai", "please", "and", "for", "the", "u", "you",
    "your", "yours", "are", "r", "how", "who", "what", "can", "do", "does", "is", "it", "this", "that", "work", "name",
    "ho", "aap", "tum", "hai", "hain", "h", "kya", "kaun", "kar", "sakte", "sakti", "see", "again", "all", "there",
    "s", "re", "m", "i", "am", "no", "just", "me", "with", "well", "going", "doing", "to", "be", "of", "use",
];
const HINGLISH: &[&str] = &[
    "namaste",
    "namaskar",
    "shukriya",
    "dhanyavaad",
    "dhanyavad",
    "dhanyawad",
    "dhanyawaad",
    "kaise",
    "kaisi",
    "theek",
    "thik",
    "accha",
    "acha",
    "achha",
    "aap",
    "tum",
    "ji",
    "hai",
    "hain",
    "kya",
    "kaun",
    "madad",
    "alvida",
    "haan",
];

/// What a chit-chat message is, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Help,
    Thanks,
    HowAreYou,
    Greeting,
    Bye,
    Ack,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Kind::Help => "help request",
            Kind::Thanks => "thanks",
            Kind::HowAreYou => "how-are-you",
            Kind::Greeting => "greeting",
            Kind::Bye => "goodbye",
            Kind::Ack => "acknowledgement",
        };
        f.write_str(name)
    }
}

fn words(message: &str) -> Vec<String> {
    message.to_lowercase().split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(String::from).collect()
}

/// The kind of chit-chat `message` is, or `None` for a real question.
pub(super) fn classify(message: &str) -> Option<Kind> {
    let words = words(message);
    let known = |w: &String| {
        [HELP, THANKS, HOW_ARE_YOU, GREETINGS, BYE, ACK, FILLER].iter().any(|list| list.contains(&w.as_str()))
    };
    if words.is_empty() || words.len() > MAX_WORDS || !words.iter().all(known) {
        return None;
    }
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    let about_me = has(&["you", "your", "aap", "tum"]) && has(&["who", "what", "kaun", "kya"]);
    let how_are_you = has(HOW_ARE_YOU) || (has(&["how"]) && has(&["you", "u"]));
    [
        (has(HELP) || about_me, Kind::Help),
        (has(THANKS), Kind::Thanks),
        (how_are_you, Kind::HowAreYou),
        (has(GREETINGS), Kind::Greeting),
        (has(BYE), Kind::Bye),
        (has(ACK), Kind::Ack),
    ]
    .into_iter()
    .find_map(|(hit, kind)| hit.then_some(kind))
}

/// Whether the message is Hinglish, so the reply can be too.
fn is_hinglish(message: &str) -> bool {
    words(message).iter().any(|w| HINGLISH.contains(&w.as_str()))
}

/// A short canned reply to a chit-chat message, in Hinglish when the message
/// is. A message that is not chit-chat gets the help reply.
pub fn reply(message: &str) -> String {
    let kind = classify(message).unwrap_or(Kind::Help);
    let hinglish = is_hinglish(message);
    let text = match (kind, hinglish) {
        (Kind::Help, false) => {
            "I'm Almirah, your local policy assistant. Ask me about leave, fees, travel claims or any document in \
             your library, and I'll answer from the current documents with citations. To ask about an earlier \
             session, say so, e.g. \"in 2024-25\"."
        }
        (Kind::Help, true) => {
            "Main Almirah hoon, aapka policy assistant. Leave, fees, travel ya kisi bhi document ke baare mein \
             poochhiye; main current documents se citation ke saath jawab doonga."
        }
        (Kind::Thanks, false) => "You're welcome! Ask me anything else about your policies.",
        (Kind::Thanks, true) => "Aapka swagat hai! Aur kuch poochhna ho to bataiye.",
        (Kind::HowAreYou, false) => "I'm doing well, thanks! What would you like to know about your policies?",
        (Kind::HowAreYou, true) => "Main theek hoon, dhanyavaad! Policy ke baare mein kya jaanna hai?",
        (Kind::Greeting, false) => "Hello! Ask me anything about your policies and circulars.",
        (Kind::Greeting, true) => "Namaste! Policy ya circulars ke baare mein kuch bhi poochhiye.",
        (Kind::Bye, false) => "Goodbye! Come back any time.",
        (Kind::Bye, true) => "Alvida! Phir milenge.",
        (Kind::Ack, false) => "Okay. Ask me whenever you need something from your documents.",
        (Kind::Ack, true) => "Theek hai. Jab chahein poochh lijiye.",
    };
    text.to_string()
}
