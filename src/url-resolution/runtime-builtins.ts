/**
 * The built-in methods CloudFront Functions' JavaScript runtime 2.0 has, as its feature page lists
 * them (primitive objects, built-in objects, globals, the `cloudfront` module):
 * https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/functions-javascript-runtime-20.html
 * less those njs 0.7.9 (the engine the runtime is built on, and the one the tests run the
 * functions in) lacks: String.prototype.replaceAll. What is not here (Array.from, .flat(),
 * Object.fromEntries, "x".at(), the Function constructor, eval) the build refuses by name
 * (function-runtime.ts).
 */

/** Methods called on a global object by its name ('Array.isArray'). */
export const STATIC_METHODS: Readonly<Record<string, readonly string[]>> = {
  Object: ['create', 'defineProperties', 'defineProperty', 'freeze', 'getOwnPropertyDescriptor', 'getOwnPropertyDescriptors', 'getOwnPropertyNames', 'getPrototypeOf', 'isExtensible', 'isFrozen', 'isSealed', 'keys', 'preventExtensions', 'seal', 'assign', 'entries', 'values'],
  String: ['fromCharCode', 'fromCodePoint', 'raw'],
  Number: ['isFinite', 'isInteger', 'isNaN', 'isSafeInteger', 'parseFloat', 'parseInt'],
  Array: ['isArray', 'of'],
  Math: ['abs', 'acos', 'asin', 'atan', 'atan2', 'ceil', 'cos', 'exp', 'floor', 'log', 'max', 'min', 'pow', 'random', 'round', 'sin', 'sqrt', 'tan',
    'acosh', 'asinh', 'atanh', 'cbrt', 'clz32', 'cosh', 'expm1', 'fround', 'hypot', 'imul', 'log10', 'log1p', 'log2', 'sign', 'sinh', 'tanh', 'trunc'],
  JSON: ['parse', 'stringify'],
  Date: ['now', 'parse', 'UTC'],
  Promise: ['all', 'allSettled', 'any', 'race', 'reject', 'resolve'],
  Buffer: ['alloc', 'allocUnsafe', 'byteLength', 'compare', 'concat', 'from', 'isBuffer', 'isEncoding'],
};

/** Methods called on a value (a string, an array, a number, a regular expression, a date, a promise, a function, a buffer). */
export const VALUE_METHODS: ReadonlySet<string> = new Set([
  // String.prototype
  'charAt', 'charCodeAt', 'codePointAt', 'concat', 'endsWith', 'includes', 'indexOf', 'lastIndexOf', 'localeCompare', 'match', 'normalize',
  'padEnd', 'padStart', 'repeat', 'replace', 'search', 'slice', 'split', 'startsWith', 'substr', 'substring', 'toLowerCase', 'toUpperCase',
  'toLocaleLowerCase', 'toLocaleUpperCase', 'trim', 'trimEnd', 'trimStart',
  // Array.prototype
  'copyWithin', 'every', 'fill', 'filter', 'find', 'findIndex', 'forEach', 'join', 'map', 'pop', 'push', 'reduce', 'reduceRight', 'reverse',
  'shift', 'some', 'sort', 'splice', 'unshift',
  // Object.prototype, Number.prototype, Function.prototype
  'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toString', 'toLocaleString', 'valueOf',
  'toExponential', 'toFixed', 'toPrecision', 'apply', 'bind', 'call',
  // RegExp.prototype, Promise.prototype
  'exec', 'test', 'then', 'catch', 'finally',
  // Date.prototype
  'getDate', 'getDay', 'getFullYear', 'getHours', 'getMilliseconds', 'getMinutes', 'getMonth', 'getSeconds', 'getTime', 'getTimezoneOffset',
  'getUTCDate', 'getUTCDay', 'getUTCFullYear', 'getUTCHours', 'getUTCMilliseconds', 'getUTCMinutes', 'getUTCMonth', 'getUTCSeconds',
  'toISOString', 'toJSON', 'toUTCString', 'toDateString', 'toTimeString',
  // Buffer.prototype (the buffer module)
  'equals', 'readUInt8', 'subarray', 'write', 'writeUInt8',
  // The `cloudfront` module: cf.kvs(), and a store's get(), exists() and meta().
  'kvs', 'get', 'exists', 'meta', 'updateRequestOrigin', 'selectRequestOriginById', 'createRequestOriginGroup',
]);

/** Globals that may be called or constructed by name. The Function constructor and eval are not among them. */
export const GLOBAL_FUNCTIONS: ReadonlySet<string> = new Set([
  'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'isFinite', 'isNaN', 'parseFloat', 'parseInt',
  'Array', 'Boolean', 'Date', 'Number', 'Object', 'Promise', 'RegExp', 'String', 'ArrayBuffer', 'DataView',
  'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array',
  'Error', 'EvalError', 'InternalError', 'MemoryError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError',
]);

/** The regular-expression flags the runtime takes: ES 5.1's (njs 0.7.9 refuses /s and /u). */
export const REGEX_FLAGS = 'gim';
