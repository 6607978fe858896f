//! Derived numbers: a number that is not in a cited chunk is allowed when the
//! sentence shows the arithmetic that produces it from supported numbers.
//!
//! Recognised forms (unit words such as `days` or `per day` may sit between
//! a number and its operator):
//! - `Rs 14,000 / 2 = Rs 7,000`, `18 days + 6 days = 24 days`, with
//!   `+ - − – × x * / ÷ plus minus times multiplied by divided by`, evaluated
//!   with the usual precedence (× and / before + and -);
//! - `50% of Rs 14,000 is Rs 7,000`;
//! - a word before the first number: `half of Rs 14,000 = Rs 7,000`,
//!   `double`, `twice`, `thrice`, `a third of`, `a quarter of`;
//! - the result follows `=`, `is`, `are`, `equals`, `gives`, `makes`,
//!   `comes to`, `which is`, `i.e.`, `→`, `->`, `=>`.
//!
//! Every operand must itself be supported (in a cited chunk or the question)
//! or be the result of an earlier expression in the same sentence, except a
//! small count (a plain whole number from 1 to 12) used as a multiplier or
//! divisor (`/ 2`, `× 12 months`). The result must equal the arithmetic to
//! the precision it is written with (`Rs 4,666.67` for 14,000 / 3).

use std::sync::LazyLock;

use regex::Regex;

use super::{NumberMention, Value, re};

const UNIT_WORDS: &str = r"(?:[\p{L}.]+\s+){0,3}?";

static OPERATOR: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(r"(?i)^\s*{UNIT_WORDS}(\+|−|–|-|plus|minus|×|x|\*|times|multiplied\s+by|/|÷|divided\s+by)\s*$"))
});
static PERCENT_OF: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)^\s*of\s+(?:the\s+)?$"));
static EQUALS: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i)^\s*,?\s*{UNIT_WORDS},?\s*(?:=|equals|is|are|gives|makes|comes\s+to|which\s+is|that\s+is|i\.e\.|→|->|=>)\s*$"
    ))
});
static PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(half|double|twice|thrice|a\s+third|one\s+third|a\s+quarter|one\s+quarter)(?:\s+of)?(?:\s+the)?\s*$")
});

#[derive(Debug, Clone, Copy, PartialEq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

/// `first op operand op operand … = result`, as indices into the mentions.
struct Expr {
    factor: f64,
    first: usize,
    rest: Vec<(Op, usize)>,
    result: usize,
}

/// For each mention, whether arithmetic in `text` allows it: the result of a
/// valid expression, or a small count used in one. `supported` tells whether
/// a mention is in a cited chunk or the question.
pub(super) fn allowed(text: &str, mentions: &[NumberMention], supported: impl Fn(&NumberMention) -> bool) -> Vec<bool> {
    let mut allowed = vec![false; mentions.len()];
    let mut derived: Vec<f64> = Vec::new();
    let mut i = 0;
    while i < mentions.len() {
        let Some(expr) = parse(text, mentions, i) else {
            i += 1;
            continue;
        };
        let ok = |j: usize| {
            let earlier = mentions[j].number().is_some_and(|v| derived.iter().any(|d| super::same(*d, v)));
            supported(&mentions[j]) || allowed[j] || earlier
        };
        let operands: Vec<(usize, Option<Op>)> = std::iter::once((expr.first, expr.rest.first().map(|r| r.0)))
            .chain(expr.rest.iter().map(|&(op, j)| (j, Some(op))))
            .collect();
        let operands_ok = operands.iter().all(|&(j, op)| ok(j) || is_count(&mentions[j], op));
        if operands_ok && equals_written(evaluate(&expr, mentions), &mentions[expr.result]) {
            allowed[expr.result] = true;
            derived.extend(mentions[expr.result].number());
        }
        // A count used as a multiplier or divisor is part of the shown arithmetic
        // even when the result is wrong: the result is what gets reported.
        for (j, op) in operands {
            allowed[j] = allowed[j] || is_count(&mentions[j], op);
        }
        i = expr.result;
    }
    // A derived value may be repeated: `= 24 days, and 24 days / 2 = 12 days`.
    for (flag, m) in allowed.iter_mut().zip(mentions) {
        *flag = *flag || m.number().is_some_and(|v| derived.iter().any(|d| super::same(*d, v)));
    }
    allowed
}

/// The expression that starts at mention `i`, if the text around it has one.
fn parse(text: &str, mentions: &[NumberMention], i: usize) -> Option<Expr> {
    let before_start = if i == 0 { 0 } else { mentions[i - 1].span.end };
    let factor = PREFIX.captures(&text[before_start..mentions[i].span.start]).map_or(1.0, |c| fraction(&c[1]));
    let mut rest = Vec::new();
    let mut j = i;
    while j + 1 < mentions.len() {
        let gap = &text[mentions[j].span.end..mentions[j + 1].span.start];
        if let Some(op) = operator(gap, &mentions[j]) {
            rest.push((op, j + 1));
            j += 1;
        } else {
            break;
        }
    }
    let result = j + 1;
    let next = mentions.get(result)?;
    let has_arithmetic = !rest.is_empty() || factor != 1.0;
    (has_arithmetic && EQUALS.is_match(&text[mentions[j].span.end..next.span.start])).then_some(Expr {
        factor,
        first: i,
        rest,
        result,
    })
}

fn operator(gap: &str, left: &NumberMention) -> Option<Op> {
    if matches!(left.value, Value::Percent(_)) && PERCENT_OF.is_match(gap) {
        return Some(Op::Mul);
    }
    let caps = OPERATOR.captures(gap)?;
    let op = match caps[1].to_lowercase().as_str() {
        "+" | "plus" => Op::Add,
        "-" | "−" | "–" | "minus" => Op::Sub,
        "/" | "÷" => Op::Div,
        w if w.starts_with("divided") => Op::Div,
        _ => Op::Mul,
    };
    Some(op)
}

fn fraction(word: &str) -> f64 {
    let w = word.to_lowercase();
    match w.split_whitespace().last().unwrap_or("") {
        "half" => 0.5,
        "double" | "twice" => 2.0,
        "thrice" => 3.0,
        "third" => 1.0 / 3.0,
        _ => 0.25,
    }
}

/// A plain whole number from 1 to 12 used as a multiplier or divisor.
fn is_count(m: &NumberMention, op: Option<Op>) -> bool {
    let count = matches!(m.value, Value::Number(v) if v.fract() == 0.0 && (1.0..=12.0).contains(&v));
    count && m.raw.chars().all(|c| c.is_ascii_digit()) && matches!(op, Some(Op::Mul | Op::Div))
}

/// The value of `expr`: percentages become fractions, × and / bind first.
fn evaluate(expr: &Expr, mentions: &[NumberMention]) -> Option<f64> {
    let value = |j: usize| match mentions[j].value {
        Value::Percent(p) => Some(p / 100.0),
        Value::Number(n) => Some(n),
        Value::Date(_) | Value::Session(_) => None,
    };
    let mut terms = vec![value(expr.first)? * expr.factor];
    let mut signs = vec![1.0];
    for &(op, j) in &expr.rest {
        let v = value(j)?;
        match op {
            Op::Add | Op::Sub => {
                terms.push(v);
                signs.push(if op == Op::Add { 1.0 } else { -1.0 });
            }
            Op::Mul => *terms.last_mut()? *= v,
            Op::Div if v != 0.0 => *terms.last_mut()? /= v,
            Op::Div => return None,
        }
    }
    Some(terms.iter().zip(signs).map(|(t, s)| t * s).sum())
}

/// Whether `result` equals `value` to the precision `result` is written with.
fn equals_written(value: Option<f64>, result: &NumberMention) -> bool {
    let (Some(value), Some(written)) = (value, result.number()) else { return false };
    let value = if matches!(result.value, Value::Percent(_)) { value * 100.0 } else { value };
    let decimals = result.raw.rsplit_once('.').map_or(0, |(head, tail)| {
        if head.ends_with(|c: char| c.is_ascii_digit()) {
            tail.chars().take_while(char::is_ascii_digit).count()
        } else {
            0
        }
    });
    let tolerance = 0.5 * 10f64.powi(-(decimals as i32)) + 1e-9 * value.abs();
    (value - written).abs() < tolerance
}
