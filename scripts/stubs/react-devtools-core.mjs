// Ink imports react-devtools-core only when DEV=true; the bundle ships this no-op instead.
export default { initialize() {}, connectToDevTools() {} };
