use super::*;

#[test]
fn every_compiled_in_backend_is_reserved_and_says_what_it_can_do() {
    let options = BackendOptions::default();
    for builtin in BUILTINS {
        assert!(
            ALL_BUILTIN_NAMES.contains(&builtin.name),
            "{}",
            builtin.name
        );
        let backend = builtin.build(&options);
        assert_eq!(backend.name(), builtin.name);
        let expected = match builtin.name {
            "dp" => Capabilities::DP,
            "varisat" => Capabilities::SAT,
            // CaDiCaL asks its terminator between steps: it stops when told.
            "cadical-lib" => Capabilities {
                interruptible: true,
                ..Capabilities::SAT
            },
            "microlp" | "highs" | "coin-cbc" => Capabilities::ILP,
            _ => Capabilities::SEARCH,
        };
        assert_eq!(backend.capabilities(), expected, "{}", builtin.name);
    }
}

#[test]
fn names_are_taken_apart_once() {
    assert_eq!(
        parse_name("portfolio"),
        Parsed::Portfolio(DEFAULT_PORTFOLIO.to_vec())
    );
    assert_eq!(
        parse_name("portfolio:native+kissat,cbc"),
        Parsed::Portfolio(vec!["native", "kissat", "cbc"])
    );
    assert_eq!(
        parse_name("varisat:sequential"),
        Parsed::Encoded {
            base: "varisat",
            encoding: "sequential"
        }
    );
    assert_eq!(parse_name("kissat"), Parsed::Single("kissat"));
    // Every reader of a name reads it the same way: a portfolio is never a member,
    // and its proof searches are its members'.
    for name in [
        "portfolio",
        "portfolio:native",
        "portfolio:varisat:sequential",
    ] {
        assert!(member_refusal(name).is_some(), "{name}");
    }
    let options = BackendOptions::default();
    assert!(proof_searches("portfolio:native-matching+native", &options)[0].matching);
    assert_eq!(by_name("portfolio", &options).unwrap().name(), "portfolio");
}

#[test]
fn encoding_suffixes_follow_the_capability() {
    let options = BackendOptions::default();
    // `portfolio:` is followed by members, not an encoding.
    for builtin in BUILTINS.iter().filter(|b| b.name != "portfolio") {
        let name = format!("{}:sequential", builtin.name);
        match by_name(&name, &options) {
            Ok(backend) => {
                assert!(builtin.capabilities().takes_encoding, "{name}");
                assert_eq!(backend.name(), name);
            }
            Err(e) => {
                assert!(!builtin.capabilities().takes_encoding, "{name}: {e}");
                assert!(matches!(&e, LookupError::NoEncoding { .. }), "{name}: {e}");
            }
        }
    }
    for encoding in Encoding::ALL {
        assert_eq!(encoding.name().parse::<Encoding>(), Ok(encoding));
    }
    assert!(matches!(
        by_name("varisat:unknown", &options),
        Err(LookupError::UnknownEncoding { .. })
    ));
}

#[test]
fn portfolio_members_must_stop_when_asked() {
    for builtin in BUILTINS {
        let refused = member_refusal(builtin.name).is_some();
        let expected = builtin.name == "portfolio" || !builtin.capabilities().interruptible;
        assert_eq!(refused, expected, "{}", builtin.name);
    }
}

/// Proof logging is asked of the backend as built: a native engine hands itself, a
/// portfolio each of the members it was built with (as many as `--threads` took), and
/// one search the logger cannot take (varisat's) makes the whole answer `None`.
#[test]
fn proof_logging_is_asked_of_the_backend_as_built() {
    let options = BackendOptions {
        threads: 2,
        ..BackendOptions::default()
    };
    let asked = |name: &str, options: &BackendOptions| {
        let backend = by_name(name, options).unwrap();
        let mut handed: Vec<bool> = Vec::new();
        let logging = backend.with_proof_logging(&mut |search| {
            let native = search.downcast_ref::<native::Native>()?;
            handed.push(native.options.matching);
            Some(Box::new(native.clone()))
        });
        (logging.map(|b| b.name().to_string()), handed)
    };
    assert_eq!(
        asked("native-matching", &options),
        (Some("native-matching".to_string()), vec![true])
    );
    assert_eq!(
        asked("portfolio", &options),
        (Some("portfolio".to_string()), vec![false, true])
    );
    let one = BackendOptions {
        threads: 1,
        ..BackendOptions::default()
    };
    assert_eq!(
        asked("portfolio", &one),
        (Some("portfolio".to_string()), vec![false])
    );
    assert_eq!(asked("varisat", &options).0, None);
    assert_eq!(asked("portfolio:native+dp", &options).0, None);
}
