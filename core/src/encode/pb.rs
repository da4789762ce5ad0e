//! `Σ wᵢ·xᵢ = target` for small positive weights, as a decision diagram.
//!
//! Node `(i, s)` stands for "the first i terms sum to exactly s". Each node is an
//! if-then-else on `xᵢ` of two nodes of the previous layer, written with the four
//! clauses of a multiplexer, so every auxiliary variable is a function of the inputs
//! (the encoding adds no models) and unit propagation is complete for it. Nodes that
//! cannot reach the target (sum already past it, or too far below it for the weights
//! that remain) are the constant false and cost nothing.

use super::{ClauseSink, EncodeError, Lit, VarPool};

/// Most decision-diagram nodes one constraint may create.
const MAX_STATES: u128 = 50_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Node {
    False,
    True,
    Var(Lit),
}

/// Writes `Σ weight·lit = target` (weights positive).
///
/// # Errors
/// The diagram would exceed its size limit.
pub fn encode_weighted_equal(
    terms: &[(u32, Lit)],
    target: u64,
    pool: &mut VarPool,
    sink: &mut dyn ClauseSink,
) -> Result<(), EncodeError> {
    let total: u64 = terms.iter().map(|&(w, _)| w as u64).sum();
    if target > total {
        sink.add_clause(&[]);
        return Ok(());
    }
    let width = target as usize + 1;
    let states = terms.len() as u128 * width as u128;
    if states > MAX_STATES {
        return Err(EncodeError::WeightedTooLarge {
            states,
            limit: MAX_STATES,
        });
    }
    // remaining[i]: the most the terms from i on can still add.
    let mut remaining = vec![0u64; terms.len() + 1];
    for i in (0..terms.len()).rev() {
        remaining[i] = remaining[i + 1] + terms[i].0 as u64;
    }
    let mut layer = vec![Node::False; width];
    layer[0] = Node::True;
    for (i, &(weight, x)) in terms.iter().enumerate() {
        let mut next = vec![Node::False; width];
        for (s, slot) in next.iter_mut().enumerate() {
            // Sums that can no longer reach the target are dead.
            if (s as u64) + remaining[i + 1] < target {
                continue;
            }
            let without = layer[s];
            let with = match s.checked_sub(weight as usize) {
                Some(prev) => layer[prev],
                None => Node::False,
            };
            *slot = ite(x, with, without, pool, sink);
        }
        layer = next;
    }
    match layer[target as usize] {
        Node::True => {}
        Node::False => sink.add_clause(&[]),
        Node::Var(v) => sink.add_clause(&[v]),
    }
    Ok(())
}

/// A node equal to `if x then hi else lo`.
fn ite(x: Lit, hi: Node, lo: Node, pool: &mut VarPool, sink: &mut dyn ClauseSink) -> Node {
    match (hi, lo) {
        (Node::False, Node::False) => Node::False,
        (Node::True, Node::True) => Node::True,
        (Node::True, Node::False) => Node::Var(x),
        (Node::False, Node::True) => Node::Var(-x),
        _ => {
            let v = pool.fresh();
            // x ∧ hi → v, x ∧ ¬hi → ¬v, ¬x ∧ lo → v, ¬x ∧ ¬lo → ¬v.
            for (guard, branch) in [(-x, hi), (x, lo)] {
                match branch {
                    Node::True => sink.add_clause(&[guard, v]),
                    Node::False => sink.add_clause(&[guard, -v]),
                    Node::Var(b) => {
                        sink.add_clause(&[guard, -b, v]);
                        sink.add_clause(&[guard, b, -v]);
                    }
                }
            }
            Node::Var(v)
        }
    }
}
