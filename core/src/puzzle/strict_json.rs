//! JSON text to a `serde_json::Value`, refusing an object that names a key twice.
//!
//! `serde_json::from_str::<Value>` keeps the last of two equal keys, so
//! `{"row_clues":[7],"row_clues":[2]}` would be solved as `[2]` while another tool reading
//! the same file might take `[7]`. A file that says two things is refused instead.

use std::fmt;

use serde::Deserializer as _;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Parses one JSON document (trailing whitespace allowed, nothing else after it).
///
/// # Errors
/// serde_json's message for malformed text, or `duplicate key `k`` for a repeated key.
pub fn from_str(text: &str) -> Result<Value, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = (&mut deserializer).deserialize_any(StrictVisitor)?;
    deserializer.end()?;
    Ok(value)
}

struct Strict;

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Strict)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format_args!(
                    "duplicate key `{}`",
                    crate::escape::terminal(&key)
                )));
            }
            let value = map.next_value_seed(Strict)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_to_serde_json_on_ordinary_documents() {
        for text in [
            r#"{"a": [1, -2, 3.5, true, null, "x"], "b": {"c": {}}}"#,
            "[]",
            "  7 ",
            r#""text""#,
        ] {
            let ours = from_str(text).unwrap();
            let theirs: Value = serde_json::from_str(text).unwrap();
            assert_eq!(ours, theirs, "{text}");
        }
    }

    #[test]
    fn duplicate_keys_are_refused_at_any_depth() {
        let e = from_str(r#"{"row_clues":[7],"row_clues":[2]}"#).unwrap_err();
        assert!(e.to_string().contains("duplicate key `row_clues`"), "{e}");
        let e = from_str(r#"{"a":[{"x":1,"x":1}]}"#).unwrap_err();
        assert!(e.to_string().contains("duplicate key `x`"), "{e}");
    }

    #[test]
    fn trailing_text_is_refused() {
        assert!(from_str("{} {}").is_err());
    }
}
