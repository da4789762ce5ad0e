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
