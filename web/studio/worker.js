// The engine's worker: loads the WebAssembly module and answers one call at a time, so
// that the page never waits on a search. A call is {id, call, args}; the answer is
// {id, ok} or {id, err}. The page stops a call that a newer request replaces by ending
// this worker (studio.js), since a running search does not read messages.
import init, * as engine from "./pkg/dominofit_web.js";

const ready = init();

self.onmessage = async (event) => {
    const { id, call, args } = event.data;
    await ready;
    try {
        if (typeof engine[call] !== "function") {
            throw `no call named ${call}`;
        }
        self.postMessage({ id, ok: engine[call](...args) });
    } catch (thrown) {
        self.postMessage({ id, err: String(thrown) });
    }
};
