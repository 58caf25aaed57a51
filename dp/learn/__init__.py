"""Learning the answer from what the agent ran next (issue 39).

``pairs`` finds fail→fix pairs in the captured calls of each session,
``generalise`` turns the pairs that recur across sessions into dp's rule kinds,
``answer`` applies a learned answer to a new failed call (the capture hook's
part: stdlib only) and ``store`` runs a learning pass into the store.
Learning itself never runs in a hook.
"""
