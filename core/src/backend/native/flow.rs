//! Transportation checks: a global necessary condition linking line quotas to cut quotas.
//!
//! Every horizontal piece lies in one row (family `p`) and crosses one column cut
//! (family `t`); every vertical piece lies in one column (`q`) and crosses one row cut
//! (`u`). Forgetting overlaps, the residual quotas must still be met by a 0/1 choice of
//! candidates, which is a bipartite flow: source → row group (capacity: residual quota)
//! → candidate → cut group (capacity: residual quota) → sink. If the maximum flow falls
//! short, no completion exists. Counting candidates per group sees each group alone;
//! the flow sees that rows and columns compete for the same pieces, which is what
//! stalls a row-by-row search on large boards.

/// Why the quotas cannot all be met, read off the flow after
/// [`Transport::feasible`] said no.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Cut {
    /// The two sides' quotas do not add up to the same total; `left_more`: the left
    /// side's is the larger.
    Totals { left_more: bool },
    /// A minimum cut: the left and right groups (their indices) on the source's side.
    /// The left ones need more pieces than can reach the right groups off that side
    /// (one per candidate) plus what the right ones on it take.
    Sides { left: Vec<u32>, right: Vec<u32> },
}

/// A reusable max-flow (Dinic) over a bipartite graph built fresh at each check.
#[derive(Default)]
pub(super) struct Transport {
    // Arc storage: to, capacity, next arc from the same node.
    to: Vec<u32>,
    cap: Vec<i32>,
    next: Vec<u32>,
    head: Vec<u32>,
    level: Vec<i32>,
    cursor: Vec<u32>,
    queue: Vec<u32>,
    stack: Vec<u32>,
    /// The last call's verdict when it was no: the totals, or `(left, right)` sizes of
    /// a flow whose last level search is the source's side of a minimum cut.
    short: Option<Result<(u32, u32), bool>>,
}

const NIL: u32 = u32::MAX;

impl Transport {
    fn reset(&mut self, nodes: usize) {
        self.to.clear();
        self.cap.clear();
        self.next.clear();
        self.head.clear();
        self.head.resize(nodes, NIL);
    }

    fn arc(&mut self, a: u32, b: u32, c: i32) {
        for (from, to, cap) in [(a, b, c), (b, a, 0)] {
            self.to.push(to);
            self.cap.push(cap);
            self.next.push(self.head[from as usize]);
            self.head[from as usize] = (self.to.len() - 1) as u32;
        }
    }

    /// Whether the left quotas can all be met: flow value equals their sum, with each
    /// right group taking at most its quota and each edge at most one unit.
    ///
    /// `left` and `right` are residual quotas (all non-negative); `edges` are
    /// `(left, right)` pairs, one per candidate.
    pub fn feasible(
        &mut self,
        left: &[i32],
        right: &[i32],
        edges: impl Iterator<Item = (u32, u32)>,
    ) -> bool {
        let demand: i64 = left.iter().map(|&q| q as i64).sum();
        let supply: i64 = right.iter().map(|&q| q as i64).sum();
        self.short = None;
        if demand != supply {
            self.short = Some(Err(demand > supply));
            return false;
        }
        if demand == 0 {
            return true;
        }
        let (nl, nr) = (left.len() as u32, right.len() as u32);
        let source = nl + nr;
        let sink = source + 1;
        self.reset(sink as usize + 1);
        for (k, &q) in left.iter().enumerate() {
            if q > 0 {
                self.arc(source, k as u32, q);
            }
        }
        for (k, &q) in right.iter().enumerate() {
            if q > 0 {
                self.arc(nl + k as u32, sink, q);
            }
        }
        for (l, r) in edges {
            if left[l as usize] > 0 && right[r as usize] > 0 {
                self.arc(l, nl + r, 1);
            }
        }
        let met = self.max_flow(source, sink) == demand;
        if !met {
            self.short = Some(Ok((nl, nr)));
        }
        met
    }

    /// After [`Transport::feasible`] said no, why: the totals, or the groups on the
    /// source's side of a minimum cut (those the last level search reached, which did
    /// not reach the sink). `None` after a yes.
    pub fn cut(&self) -> Option<Cut> {
        match self.short? {
            Err(left_more) => Some(Cut::Totals { left_more }),
            Ok((nl, nr)) => {
                let reached = |v: u32| self.level[v as usize] >= 0;
                Some(Cut::Sides {
                    left: (0..nl).filter(|&k| reached(k)).collect(),
                    right: (0..nr).filter(|&k| reached(nl + k)).collect(),
                })
            }
        }
    }

    fn max_flow(&mut self, source: u32, sink: u32) -> i64 {
        let nodes = self.head.len();
        let mut flow = 0i64;
        loop {
            // Levels by breadth-first search from the source over residual arcs.
            self.level.clear();
            self.level.resize(nodes, -1);
            self.level[source as usize] = 0;
            self.queue.clear();
            self.queue.push(source);
            let mut k = 0;
            while k < self.queue.len() {
                let v = self.queue[k];
                k += 1;
                let mut a = self.head[v as usize];
                while a != NIL {
                    let w = self.to[a as usize];
                    if self.cap[a as usize] > 0 && self.level[w as usize] < 0 {
                        self.level[w as usize] = self.level[v as usize] + 1;
                        self.queue.push(w);
                    }
                    a = self.next[a as usize];
                }
            }
            if self.level[sink as usize] < 0 {
                return flow;
            }
            self.cursor.clear();
            self.cursor.extend_from_slice(&self.head);
            // Blocking flow by repeated depth-first augmentation along level arcs.
            loop {
                let pushed = self.augment(source, sink);
                if pushed == 0 {
                    break;
                }
                flow += pushed as i64;
            }
        }
    }

    /// One augmenting path along increasing levels; returns the amount pushed.
    fn augment(&mut self, source: u32, sink: u32) -> i32 {
        // Iterative DFS keeping the arcs taken on `stack`.
        self.stack.clear();
        let mut v = source;
        loop {
            if v == sink {
                let amount = self
                    .stack
                    .iter()
                    .map(|&a| self.cap[a as usize])
                    .min()
                    .unwrap_or(0);
                for &a in &self.stack {
                    self.cap[a as usize] -= amount;
                    self.cap[(a ^ 1) as usize] += amount;
                }
                return amount;
            }
            let mut advanced = false;
            while self.cursor[v as usize] != NIL {
                let a = self.cursor[v as usize];
                let w = self.to[a as usize];
                if self.cap[a as usize] > 0 && self.level[w as usize] == self.level[v as usize] + 1
                {
                    self.stack.push(a);
                    v = w;
                    advanced = true;
                    break;
                }
                self.cursor[v as usize] = self.next[a as usize];
            }
            if !advanced {
                // Dead end: retreat and never try this node again in this phase.
                self.level[v as usize] = -1;
                match self.stack.pop() {
                    Some(a) => {
                        v = self.to[(a ^ 1) as usize];
                        self.cursor[v as usize] = self.next[a as usize];
                    }
                    None => return 0,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transportation_feasibility() {
        let mut t = Transport::default();
        // Two rows needing 1 each, two columns taking 1 each, a full 2x2 of candidates.
        let full = [(0, 0), (0, 1), (1, 0), (1, 1)];
        assert!(t.feasible(&[1, 1], &[1, 1], full.iter().copied()));
        // Both rows can only use column 0.
        assert!(!t.feasible(&[1, 1], &[1, 1], [(0, 0), (1, 0)].into_iter()));
        // Row 0 needs 2 but has one candidate per column; columns take 2 and 0.
        assert!(!t.feasible(&[2, 0], &[2, 0], full.iter().copied()));
        assert!(t.feasible(&[2, 0], &[1, 1], full.iter().copied()));
        // Unequal totals are infeasible outright.
        assert!(!t.feasible(&[1, 1], &[1], [(0, 0), (1, 0)].into_iter()));
        assert!(t.feasible(&[0, 0], &[0], std::iter::empty()));
    }

    /// The cut names the groups that over-ask: both rows need column 0, which takes
    /// one; the source's side holds both rows and column 0 (column 1 is unreachable).
    #[test]
    fn a_short_flow_names_its_minimum_cut() {
        let mut t = Transport::default();
        assert!(!t.feasible(&[1, 1], &[1, 1], [(0, 0), (1, 0)].into_iter()));
        assert_eq!(
            t.cut(),
            Some(Cut::Sides {
                left: vec![0, 1],
                right: vec![0]
            })
        );
        assert!(!t.feasible(&[2, 1], &[1, 1], std::iter::empty()));
        assert_eq!(t.cut(), Some(Cut::Totals { left_more: true }));
        assert!(t.feasible(&[1], &[1], [(0, 0)].into_iter()));
        assert_eq!(t.cut(), None);
    }
}
