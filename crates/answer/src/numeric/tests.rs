#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
use super::*;

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

fn values(text: &str) -> Vec<Value> {
    numbers_in(text).into_iter().map(|m| m.value).collect()
}

fn offending(sentence: &str, chunks: &[&str], question: &str) -> Vec<String> {
    match check_sentence(sentence, chunks, question) {
        Ok(()) => Vec::new(),
        Err(v) => v.offending.into_iter().map(|m| m.raw).collect(),
    }
}

const Q: &str = "What is the MTech tuition fee?";

#[test]
fn amounts_normalise_across_currency_marks_and_grouping() {
    for text in ["₹48,500", "Rs 48500", "Rs. 48,500", "INR 48,500", "48500", "48,500.00", "$48,500", "48.5 thousand"]
    {
        assert_eq!(values(text), vec![Value::Number(48500.0)], "{text}");
    }
    assert_eq!(values("Rs 1,48,500"), vec![Value::Number(148500.0)]);
    assert_eq!(values("1.5 lakh and 2 crore"), vec![Value::Number(150000.0), Value::Number(2e7)]);
    assert_eq!(numbers_in("fee: ₹48,500 per year")[0].raw, "₹48,500");
}

#[test]
fn percentages_dates_and_sessions() {
    assert_eq!(values("50% or 50 percent or 50 per cent"), vec![Value::Percent(50.0); 3]);
    for text in ["1 April 2026", "01.04.2026", "2026-04-01", "April 1, 2026", "1st April, 2026"] {
        assert_eq!(values(text), vec![Value::Date(d(2026, 4, 1))], "{text}");
    }
    assert_eq!(values("for 2026-27"), vec![Value::Session(Session { start_year: 2026 })]);
    assert_eq!(values("in 2026"), vec![Value::Number(2026.0)]);
}

#[test]
fn words_and_identifiers_are_not_numbers() {
    assert!(numbers_in("Scholarship holders pay half; twice a year.").is_empty());
    assert!(numbers_in("See Circular-14 and Circular-09, COVID-19 rules, v3, p.1 and commit 9e1c326.").is_empty());
    assert_eq!(values("the 2nd instalment"), vec![Value::Number(2.0)]);
}

#[test]
fn an_amount_missing_from_the_chunk_is_caught_in_both_spellings() {
    let chunk = "The MTech tuition fee is Rs 45,000 per semester.";
    assert_eq!(offending("The MTech tuition fee is Rs 48,500 per semester.", &[chunk], Q), vec!["Rs 48,500"]);
    assert_eq!(offending("The MTech tuition fee is ₹48500 per semester.", &[chunk], Q), vec!["₹48500"]);
    let err = check_sentence("The fee is Rs 48,500.", &[chunk], Q).unwrap_err();
    assert_eq!(err.to_string(), "Rs 48,500 is not in the cited chunk");
}

#[test]
fn an_amount_in_the_chunk_passes_in_any_spelling() {
    for chunk in ["The MTech tuition fee is 48500 per semester.", "The MTech tuition fee is Rs 48,500."] {
        assert!(check_sentence("The MTech tuition fee is Rs 48,500 per semester.", &[chunk], Q).is_ok());
        assert!(check_sentence("The MTech tuition fee is ₹48500 per semester.", &[chunk], Q).is_ok());
    }
}

#[test]
fn indian_grouping_matches_plain_digits() {
    assert!(check_sentence("The annual fee is Rs 1,48,500.", &["Annual fee: INR 148500"], Q).is_ok());
    assert!(check_sentence("The annual fee is Rs 1,48,500.", &["Annual fee: INR 184500"], Q).is_err());
}

#[test]
fn derived_half_is_allowed_only_over_the_cited_number() {
    let sentence = "Scholarship holders pay half of Rs 14,000 = Rs 7,000 per semester.";
    assert!(check_sentence(sentence, &["The hostel fee is Rs 14,000 per semester."], Q).is_ok());
    let wrong = offending(sentence, &["The hostel fee is Rs 12,000 per semester."], Q);
    assert_eq!(wrong, vec!["Rs 14,000", "Rs 7,000"]);
}

#[test]
fn other_arithmetic_forms() {
    let chunk = "The hostel fee is Rs 14,000. Earned leave: 18 days; special leave: 6 days. Concession: 50%.";
    for sentence in [
        "That is Rs 14,000 / 2 = Rs 7,000.",
        "Total leave is 18 days + 6 days = 24 days.",
        "50% of Rs 14,000 is Rs 7,000.",
        "Rs 14,000 / 3 = Rs 4,666.67 each.",
        "Rs. 14,000 / 3 = Rs. 4,667 each.",
        "Rs 14,000 x 2 = Rs 28,000.",
        "18 days + 6 days = 24 days, and 24 days / 2 = 12 days.",
    ] {
        assert!(check_sentence(sentence, &[chunk], Q).is_ok(), "{sentence}");
    }
    assert_eq!(offending("Total leave is 18 days + 6 days = 25 days.", &[chunk], Q), vec!["25"]);
    assert_eq!(offending("Total leave is 24 days.", &[chunk], Q), vec!["24"]);
    assert_eq!(
        offending("Rs 14,000 / 3 = Rs 4,666.70 each.", &[chunk], Q),
        vec!["Rs 4,666.70"],
        "written precision counts"
    );
}

#[test]
fn a_number_from_the_question_is_allowed() {
    let question = "If my hotel bill is Rs 9,000, how much is reimbursed?";
    let sentence = "Hotel stays are reimbursed up to Rs 5,000 per night, so Rs 9,000 is above the cap.";
    assert!(check_sentence(sentence, &["Hotel: up to Rs. 5,000 per night."], question).is_ok());
    assert!(check_sentence(sentence, &["Hotel: up to Rs. 5,000 per night."], Q).is_err());
}

#[test]
fn dates_match_across_formats() {
    let chunk = "This circular is effective from 01.04.2026.";
    assert!(check_sentence("It applies from 1 April 2026.", &[chunk], Q).is_ok());
    assert!(check_sentence("It applies from 2026-04-01.", &[chunk], Q).is_ok());
    assert_eq!(offending("It applies from 1 May 2026.", &[chunk], Q), vec!["1 May 2026"]);
    assert!(check_sentence("It applies in 2026.", &[chunk], Q).is_ok(), "a chunk's date supports its year");
}

#[test]
fn system_labels_and_citation_keys_are_exempt() {
    let chunk = "Scholarship holders pay Rs 7,000 for the hostel.";
    let sentence = "As of 2024-25, scholarship holders paid Rs 7,000 (speaks for 2024-25). [circular-09@2024-25::p1#2]";
    assert!(check_sentence(sentence, &[chunk], Q).is_ok());
    assert_eq!(strip_system_labels(sentence), "scholarship holders paid Rs 7,000.");
    assert_eq!(
        strip_system_labels("The rule holds as of 29 November 2026 [leave-policy@4::earned-leave#1]."),
        "The rule holds."
    );
    assert_eq!(offending("In 2024-25 the fee was Rs 7,000.", &[chunk], Q), vec!["2024-25"]);
}

#[test]
fn sessions_years_and_dollars_in_real_sentences() {
    let chunk = "Circular-14 (2026-27): the hostel fee is Rs 14,000 per semester.";
    assert!(check_sentence("For 2026-27 the hostel fee is Rs 14,000 per semester.", &[chunk], Q).is_ok());
    let overtime = "Overtime pay is capped at the GS-15 step 10 rate of $191,900 per year.";
    assert!(check_sentence("The overtime pay cap is $191,900.", &[overtime], Q).is_ok());
    assert_eq!(offending("The overtime pay cap is $183,500.", &[overtime], Q), vec!["$183,500"]);
}

#[test]
fn a_sentence_without_numbers_passes() {
    assert!(check_sentence("Scholarship holders pay half the hostel fee.", &[], Q).is_ok());
    assert!(
        check_sentence("1. Scholarship holders pay half.", &["Half fee."], Q).is_ok(),
        "list markers are not numbers"
    );
}

#[test]
fn several_offenders_are_listed_together() {
    let err = check_sentence("Rs 48,500 and Rs 9,999 apply.", &["Rs 45,000", "Rs 1"], Q).unwrap_err();
    assert_eq!(err.to_string(), "Rs 48,500 and Rs 9,999 are not in the cited chunks");
}
