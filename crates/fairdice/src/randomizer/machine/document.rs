//! The JSON document of a [`Machine`]: read with serde (unknown fields refused,
//! keys kept in the order written), checked, and turned into layers of integer
//! weights.
//!
//! ```json
//! {
//!   "name": "limited banner",
//!   "outcomes": ["3-star", "featured", "standard"],
//!   "layers": [
//!     {"name": "pity", "counter": 90,
//!      "draw": {"5-star": "min(1, 0.6% + 6% * max(0, n - 72))", "3-star": "rest"},
//!      "next": {"5-star": 0, "3-star": "n + 1"}},
//!     {"name": "fifty-fifty", "refines": "5-star",
//!      "states": {
//!        "even": {"draw": {"featured": "1/2", "standard": "1/2"},
//!                 "next": {"standard": "guaranteed"}},
//!        "guaranteed": {"draw": {"featured": 1}, "next": {"featured": "even"}}}}
//!   ]
//! }
//! ```
//! A layer is a **counter** (`"counter": N`: states `n = 0 … N−1`, its chances
//! and moves formulas of `n`), has named **states** (each with its `draw` and
//! `next`), or is one state (`draw` alone). `next` maps a result to the state it
//! leads to; a result it leaves out stays. One result's chance may be `"rest"`.

use std::fmt;
use std::marker::PhantomData;

use num_integer::Integer;
use num_traits::{CheckedAdd, ToPrimitive, Zero};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use super::formula::{Exact, Formula};
use super::{
    Layer, LayerState, MAX_LAYER_ENTRIES, MAX_LAYERS, MAX_MACHINE_BYTES, MAX_RESULTS, Machine,
    MachineError, MachineParameter, NEVER, Then,
};

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    about: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    outcomes: Option<Vec<Term>>,
    #[serde(default, skip_serializing_if = "Ordered::is_empty")]
    parameters: Ordered<ParameterDocument>,
    layers: Vec<LayerDocument>,
}

/// A named number the formulas may use: its value, and the values a tuner tries.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ParameterDocument {
    value: Term,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tune: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    about: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct LayerDocument {
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    refines: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    counter: Option<Term>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    start: Option<Term>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    draw: Option<Ordered<Term>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    next: Option<Ordered<Term>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    states: Option<Ordered<StateDocument>>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateDocument {
    draw: Ordered<Term>,
    #[serde(default, skip_serializing_if = "Ordered::is_empty")]
    next: Ordered<Term>,
}

/// A number as written, or a text (a formula, a state's name, `rest`).
#[derive(Debug, Clone, PartialEq)]
enum Term {
    Number(serde_json::Number),
    Text(String),
}

impl Term {
    fn text(&self) -> String {
        match self {
            Term::Number(n) => n.to_string(),
            Term::Text(t) => t.clone(),
        }
    }
}

impl Serialize for Term {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Term::Number(n) => n.serialize(serializer),
            Term::Text(t) => serializer.serialize_str(t),
        }
    }
}

impl<'de> Deserialize<'de> for Term {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Term, D::Error> {
        struct TermVisitor;
        impl Visitor<'_> for TermVisitor {
            type Value = Term;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number or a text such as \"1/2\" or \"n + 1\"")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Term, E> {
                Ok(Term::Number(v.into()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Term, E> {
                Ok(Term::Number(v.into()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Term, E> {
                serde_json::Number::from_f64(v)
                    .map(Term::Number)
                    .ok_or_else(|| E::custom("a finite number"))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Term, E> {
                Ok(Term::Text(v.to_string()))
            }
        }
        deserializer.deserialize_any(TermVisitor)
    }
}

/// A JSON object read in the order written, each key once.
#[derive(Debug)]
struct Ordered<T>(Vec<(String, T)>);

impl<T> Default for Ordered<T> {
    fn default() -> Self {
        Ordered(Vec::new())
    }
}

impl<T> Ordered<T> {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn get(&self, key: &str) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

impl<T: Serialize> Serialize for Ordered<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Ordered<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct OrderedVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for OrderedVisitor<T> {
            type Value = Ordered<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Ordered<T>, A::Error> {
                let mut entries: Vec<(String, T)> = Vec::new();
                while let Some((key, value)) = access.next_entry::<String, T>()? {
                    if entries.iter().any(|(k, _)| *k == key) {
                        return Err(de::Error::custom(format!("the key {key:?} is given twice")));
                    }
                    entries.push((key, value));
                }
                Ok(Ordered(entries))
            }
        }
        deserializer.deserialize_map(OrderedVisitor(PhantomData))
    }
}

/// Reads, checks and builds a machine document.
pub(super) fn read(text: &str) -> Result<Machine, MachineError> {
    if text.len() > MAX_MACHINE_BYTES {
        return Err(MachineError::TooLong { found: text.len() });
    }
    let document: Document =
        serde_json::from_str(text).map_err(|e| MachineError::Document(e.to_string()))?;
    let spec =
        serde_json::to_string(&document).map_err(|e| MachineError::Document(e.to_string()))?;
    let invalid = MachineError::Invalid;
    if document.layers.is_empty() {
        return Err(invalid("a machine needs at least one layer".into()));
    }
    if document.layers.len() > MAX_LAYERS {
        return Err(MachineError::TooLarge(format!(
            "the machine has {} layers; accepted: at most {MAX_LAYERS}",
            document.layers.len()
        )));
    }
    let parameters = evaluate_parameters(&document.parameters)?;
    let mut layers = Vec::with_capacity(document.layers.len());
    for (index, layer) in document.layers.iter().enumerate() {
        let built = build_layer(layer, &parameters)?;
        for result in &built.results {
            if let Some(earlier) = layers.iter().find(|l: &&Layer| l.results.contains(result)) {
                return Err(invalid(format!(
                    "the result {result:?} is drawn by layers {:?} and {:?}; name each result once",
                    earlier.name, built.name
                )));
            }
        }
        match (&layer.refines, index) {
            (Some(_), 0) => {
                return Err(invalid(format!(
                    "layer {:?} is the first layer, which draws on every step: it cannot refine a result",
                    layer.name
                )));
            }
            (Some(refined), _) => {
                let Some((parent, result)) =
                    layers
                        .iter()
                        .enumerate()
                        .find_map(|(i, l): (usize, &Layer)| {
                            l.results.iter().position(|r| r == refined).map(|r| (i, r))
                        })
                else {
                    return Err(invalid(format!(
                        "layer {:?} refines {refined:?}, which no earlier layer draws",
                        layer.name
                    )));
                };
                let parent: &mut Layer = &mut layers[parent];
                if let Then::Layer(other) = parent.then[result] {
                    return Err(invalid(format!(
                        "{refined:?} is refined by two layers, {:?} and {:?}",
                        document.layers[other].name, layer.name
                    )));
                }
                parent.then[result] = Then::Layer(index);
            }
            (None, 0) => {}
            (None, _) => {
                return Err(invalid(format!(
                    "layer {:?} needs \"refines\": the result of an earlier layer it replaces",
                    layer.name
                )));
            }
        }
        layers.push(built);
    }
    // The outcomes: every result no layer refines, in the order listed or in the
    // order the layers draw them.
    let mut leaves = Vec::new();
    fn collect(layers: &[Layer], layer: usize, leaves: &mut Vec<(usize, usize)>) {
        for (result, then) in layers[layer].then.iter().enumerate() {
            match *then {
                Then::Layer(child) => collect(layers, child, leaves),
                Then::Outcome(_) => leaves.push((layer, result)),
            }
        }
    }
    collect(&layers, 0, &mut leaves);
    let names: Vec<String> = match &document.outcomes {
        None => leaves
            .iter()
            .map(|&(l, r)| layers[l].results[r].clone())
            .collect(),
        Some(listed) => {
            let listed: Vec<String> = listed.iter().map(Term::text).collect();
            for name in &listed {
                if listed.iter().filter(|n| *n == name).count() > 1 {
                    return Err(invalid(format!("the outcome {name:?} is listed twice")));
                }
                if !leaves.iter().any(|&(l, r)| layers[l].results[r] == *name) {
                    return Err(invalid(format!(
                        "the outcome {name:?} is listed but is not a result a layer draws (or it is refined)"
                    )));
                }
            }
            if let Some(&(l, r)) = leaves
                .iter()
                .find(|&&(l, r)| !listed.contains(&layers[l].results[r]))
            {
                return Err(invalid(format!(
                    "\"outcomes\" leaves out {:?}, which layer {:?} draws",
                    layers[l].results[r], layers[l].name
                )));
            }
            listed
        }
    };
    for &(layer, result) in &leaves {
        let name = &layers[layer].results[result];
        let outcome = names.iter().position(|n| n == name).expect("checked above");
        layers[layer].then[result] = Then::Outcome(outcome);
    }
    Machine::assemble(spec, document.name, layers, names)
}

/// The most parameters a document may define.
pub const MAX_PARAMETERS: usize = 16;

/// Each parameter's exact value, in the order written (a value may use the
/// parameters before it).
fn evaluate_parameters(
    parameters: &Ordered<ParameterDocument>,
) -> Result<Vec<(String, Exact)>, MachineError> {
    if parameters.0.len() > MAX_PARAMETERS {
        return Err(MachineError::TooLarge(format!(
            "the machine has {} parameters; accepted: at most {MAX_PARAMETERS}",
            parameters.0.len()
        )));
    }
    let mut values: Vec<(String, Exact)> = Vec::with_capacity(parameters.0.len());
    for (name, parameter) in &parameters.0 {
        let invalid =
            |message: String| MachineError::Invalid(format!("parameter {name:?}: {message}"));
        let mut chars = name.chars();
        let identifier = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
            && name.len() <= 40;
        if !identifier {
            return Err(invalid(
                "a name is a letter or `_`, then letters, digits or `_` (at most 40)".into(),
            ));
        }
        if ["n", "min", "max", "rest"].contains(&name.as_str()) {
            return Err(invalid(
                "n, min, max and rest are taken by formulas; choose another name".into(),
            ));
        }
        let value = Formula::parse(&parameter.value.text(), false, &values)
            .and_then(|f| f.evaluate(0))
            .map_err(|e| invalid(format!("its value: {e}")))?;
        values.push((name.clone(), value));
    }
    Ok(values)
}

/// The parameters of the document `spec`: each name, its value as written and
/// the values a tuner tries (`None` when the document names none).
pub(super) fn parameters(spec: &str) -> Result<Vec<MachineParameter>, MachineError> {
    let document: Document =
        serde_json::from_str(spec).map_err(|e| MachineError::Document(e.to_string()))?;
    Ok(document
        .parameters
        .0
        .into_iter()
        .map(|(name, p)| MachineParameter {
            name,
            value: p.value.text(),
            tune: p.tune,
        })
        .collect())
}

/// The document `spec` with the parameters named in `values` set to those
/// values (numbers or formulas, as `value` takes them), every other field as
/// written.
pub(super) fn with_parameters(
    spec: &str,
    values: &[(&str, String)],
) -> Result<String, MachineError> {
    let mut document: Document =
        serde_json::from_str(spec).map_err(|e| MachineError::Document(e.to_string()))?;
    for (name, value) in values {
        let Some(slot) = document.parameters.0.iter_mut().find(|(n, _)| n == name) else {
            let names: Vec<&str> = document
                .parameters
                .0
                .iter()
                .map(|(n, _)| n.as_str())
                .collect();
            return Err(MachineError::Invalid(format!(
                "the machine has no parameter {name:?}; its parameters: {}",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            )));
        };
        slot.1.value = match serde_json::from_str::<serde_json::Number>(value) {
            Ok(number) => Term::Number(number),
            Err(_) => Term::Text(value.clone()),
        };
    }
    serde_json::to_string(&document).map_err(|e| MachineError::Document(e.to_string()))
}

/// A state as written: its name, its chances and its moves.
type StateSource<'a> = (String, &'a Ordered<Term>, Option<&'a Ordered<Term>>);

/// One layer's states, each result's weights and moves.
fn build_layer(
    layer: &LayerDocument,
    parameters: &[(String, Exact)],
) -> Result<Layer, MachineError> {
    let name = &layer.name;
    let invalid = |message: String| MachineError::Invalid(format!("layer {name:?}: {message}"));
    // (state names, each state's draw and next, counter size)
    let single: [StateSource<'_>; 1];
    let named: Vec<StateSource<'_>>;
    if layer.states.is_some() && (layer.draw.is_some() || layer.next.is_some()) {
        return Err(invalid(
            "with \"states\", give \"draw\" and \"next\" inside each state".into(),
        ));
    }
    if layer.states.is_some() && layer.counter.is_some() {
        return Err(invalid(
            "give either \"counter\" or \"states\", not both".into(),
        ));
    }
    let counter_size = match &layer.counter {
        None => None,
        Some(term) => {
            let value = Formula::parse(&term.text(), false, parameters)
                .and_then(|f| f.evaluate(0))
                .map_err(|e| invalid(format!("\"counter\": {e}")))?;
            match value.to_integer().to_u64() {
                Some(n) if value.is_integer() => Some(n),
                _ => {
                    return Err(invalid(format!(
                        "\"counter\" is {value}; accepted: a whole number of states, at least 1"
                    )));
                }
            }
        }
    };
    let (states, counter): (&[StateSource<'_>], Option<usize>) = match (
        &layer.states,
        counter_size,
        &layer.draw,
    ) {
        (Some(states), _, _) => {
            named = states
                .0
                .iter()
                .map(|(n, s)| (n.clone(), &s.draw, Some(&s.next)))
                .collect();
            (&named, None)
        }
        (None, _, None) => {
            return Err(invalid(
                    "expected \"draw\" (the chance of each result), with \"counter\" or alone, or \"states\"".into(),
                ));
        }
        (None, counter, Some(draw)) => {
            let size = match counter {
                None => None,
                Some(0) => return Err(invalid("\"counter\" must be at least 1".into())),
                Some(n) if n as usize > MAX_LAYER_ENTRIES => {
                    return Err(MachineError::TooLarge(format!(
                        "layer {name:?}: a counter of {n} states; accepted: at most {MAX_LAYER_ENTRIES}"
                    )));
                }
                Some(n) => Some(n as usize),
            };
            single = [("only".to_string(), draw, layer.next.as_ref())];
            (&single, size)
        }
    };
    if states.is_empty() {
        return Err(invalid("\"states\" is empty".into()));
    }
    let mut results: Vec<String> = Vec::new();
    for (_, draw, _) in states {
        for (result, _) in &draw.0 {
            if !results.contains(result) {
                results.push(result.clone());
            }
        }
    }
    if results.is_empty() {
        return Err(invalid("it draws no result".into()));
    }
    if results.len() > MAX_RESULTS {
        return Err(MachineError::TooLarge(format!(
            "layer {name:?} draws {} results; accepted: at most {MAX_RESULTS}",
            results.len()
        )));
    }
    let state_count = counter.unwrap_or(states.len());
    if state_count.saturating_mul(results.len()) > MAX_LAYER_ENTRIES {
        return Err(MachineError::TooLarge(format!(
            "layer {name:?} has {state_count} states of {} results; accepted: at most {MAX_LAYER_ENTRIES} together",
            results.len()
        )));
    }
    let state_names: Vec<String> = match counter {
        Some(n) => (0..n).map(|i| i.to_string()).collect(),
        None => states.iter().map(|(n, _, _)| n.clone()).collect(),
    };
    if let Some(next) = states
        .iter()
        .find_map(|(_, _, next)| next.and_then(|n| n.0.iter().find(|(r, _)| !results.contains(r))))
    {
        return Err(invalid(format!(
            "\"next\" names {:?}, which the layer never draws",
            next.0
        )));
    }
    let mut built = Vec::with_capacity(state_count);
    for index in 0..state_count {
        let (state_name, draw, next) = &states[if counter.is_some() { 0 } else { index }];
        let at = match counter {
            Some(_) => format!("n = {index}: "),
            None if layer.states.is_some() => format!("state {state_name:?}: "),
            None => String::new(),
        };
        let n = index as u64;
        let context = |message: String| invalid(format!("{at}{message}"));
        built.push(build_state(
            draw,
            *next,
            &results,
            n,
            counter,
            &state_names,
            index as u32,
            parameters,
            &context,
        )?);
    }
    let start = match (&layer.start, counter) {
        (None, _) => 0,
        (Some(term), Some(size)) => {
            let value = Formula::parse(&term.text(), false, parameters)
                .and_then(|f| f.evaluate(0))
                .map_err(|e| invalid(format!("\"start\": {e}")))?;
            match value.to_integer().to_usize() {
                Some(v) if value.is_integer() && v < size => v as u32,
                _ => {
                    return Err(invalid(format!(
                        "\"start\" is {value}; accepted: a count 0 to {}",
                        size - 1
                    )));
                }
            }
        }
        (Some(term), None) => {
            let wanted = term.text();
            state_names
                .iter()
                .position(|s| *s == wanted)
                .ok_or_else(|| {
                    invalid(format!(
                        "\"start\" is {wanted:?}, not one of its states ({})",
                        state_names.join(", ")
                    ))
                })? as u32
        }
    };
    Ok(Layer {
        name: name.clone(),
        counter,
        state_names,
        then: vec![Then::Outcome(0); results.len()],
        results,
        start,
        states: built,
    })
}

/// One state: its exact chances as weights over their common denominator, and
/// where each result leads.
#[allow(clippy::too_many_arguments)]
fn build_state(
    draw: &Ordered<Term>,
    next: Option<&Ordered<Term>>,
    results: &[String],
    n: u64,
    counter: Option<usize>,
    state_names: &[String],
    here: u32,
    parameters: &[(String, Exact)],
    context: &dyn Fn(String) -> MachineError,
) -> Result<LayerState, MachineError> {
    let mut chances = vec![Exact::zero(); results.len()];
    let mut rest = None;
    let mut sum = Exact::zero();
    for (result, term) in &draw.0 {
        let slot = results.iter().position(|r| r == result).expect("collected");
        if matches!(term, Term::Text(t) if t.trim() == "rest") {
            if rest.is_some() {
                return Err(context("only one result's chance may be \"rest\"".into()));
            }
            rest = Some(slot);
            continue;
        }
        let chance = Formula::parse(&term.text(), counter.is_some(), parameters)
            .and_then(|f| f.evaluate(n))
            .map_err(|e| context(format!("the chance of {result:?}: {e}")))?;
        if chance < Exact::zero() || chance > Exact::from_integer(1) {
            return Err(context(format!(
                "the chance of {result:?} is {chance}; accepted: 0 to 1"
            )));
        }
        chances[slot] = chance;
        sum = sum
            .checked_add(&chance)
            .ok_or_else(|| context("the chances outgrow 128 bits".into()))?;
    }
    let one = Exact::from_integer(1);
    match rest {
        Some(slot) if sum <= one => chances[slot] = one - sum,
        Some(_) => {
            return Err(context(format!(
                "the chances other than \"rest\" sum to {sum}, above 1"
            )));
        }
        None if sum != one => {
            return Err(context(format!(
                "the chances sum to {sum}, not 1 (give one result the chance \"rest\")"
            )));
        }
        None => {}
    }
    // Integer weights over the common denominator.
    let mut denominator: i128 = 1;
    for chance in &chances {
        denominator = denominator
            .checked_mul(chance.denom() / denominator.gcd(chance.denom()))
            .filter(|&d| d <= i128::from(i64::MAX))
            .ok_or_else(|| {
                context(
                    "the chances' common denominator is above 2^63; write them with fewer digits"
                        .into(),
                )
            })?;
    }
    let weights: Vec<u64> = chances
        .iter()
        .map(|c| (c.numer() * (denominator / c.denom())) as u64)
        .collect();
    let mut moves = vec![NEVER; results.len()];
    for (slot, result) in results.iter().enumerate() {
        let target = match next.and_then(|next| next.get(result)) {
            None => Some(here),
            Some(term) => match counter {
                Some(size) => {
                    let value = Formula::parse(&term.text(), true, parameters)
                        .and_then(|f| f.evaluate(n))
                        .map_err(|e| context(format!("the next state after {result:?}: {e}")))?;
                    value
                        .is_integer()
                        .then(|| value.to_integer().to_usize())
                        .flatten()
                        .filter(|&v| v < size)
                        .map(|v| v as u32)
                        .or_else(|| (weights[slot] == 0).then_some(NEVER))
                        .ok_or_else(|| {
                            context(format!(
                                "after {result:?} the next count is {value}; accepted: 0 to {}",
                                size - 1
                            ))
                        })
                        .map(Some)?
                }
                None => {
                    let wanted = term.text();
                    Some(state_names.iter().position(|s| *s == wanted).ok_or_else(|| {
                        context(format!(
                            "after {result:?} it goes to {wanted:?}, not one of its states ({})",
                            state_names.join(", ")
                        ))
                    })? as u32)
                }
            },
        };
        moves[slot] = target.unwrap_or(NEVER);
    }
    Ok(LayerState {
        total: denominator as u64,
        weights,
        next: moves,
    })
}
