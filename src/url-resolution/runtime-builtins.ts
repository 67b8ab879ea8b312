/**
 * The built-in methods CloudFront Functions' JavaScript runtime 2.0 has, as its feature page lists
 * them (primitive objects, built-in objects, error types, globals, the Buffer module, the
 * `cloudfront` module), checked name by name against that page:
 * https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/functions-javascript-runtime-20.html
 * less those njs 0.7.9 (the engine the runtime is built on, and the one the tests run the
 * functions in) lacks: String.prototype.replaceAll. What the page does not list is refused, even
 * where njs has it: Array.from, .flat(), Object.fromEntries, "x".at(), String.raw, "x".charCodeAt()
 * (ES 5.1, yet not among the page's string methods), .normalize(), .localeCompare(), MemoryError,
 * the Function constructor and eval (function-runtime.ts names each). Date has "all ES 5.1 Date
 * features". The page files Object.is() and Object.setPrototypeOf() under Object's prototype
 * methods; they are the constructor's, so they are here.
 */

const TYPED_ARRAY_STATICS = ['from', 'of'];

/** Methods called on a global object by its name ('Array.isArray'). */
export const STATIC_METHODS: Readonly<Record<string, readonly string[]>> = {
  Object: ['create', 'defineProperties', 'defineProperty', 'freeze', 'getOwnPropertyDescriptor', 'getOwnPropertyDescriptors', 'getOwnPropertyNames', 'getPrototypeOf', 'isExtensible', 'isFrozen', 'isSealed', 'keys', 'preventExtensions', 'seal', 'assign', 'entries', 'values', 'is', 'setPrototypeOf'],
  String: ['fromCharCode', 'fromCodePoint'],
  Number: ['isFinite', 'isInteger', 'isNaN', 'isSafeInteger', 'parseFloat', 'parseInt'],
  Array: ['isArray', 'of'],
  Math: ['abs', 'acos', 'asin', 'atan', 'atan2', 'ceil', 'cos', 'exp', 'floor', 'log', 'max', 'min', 'pow', 'random', 'round', 'sin', 'sqrt', 'tan',
    'acosh', 'asinh', 'atanh', 'cbrt', 'clz32', 'cosh', 'expm1', 'fround', 'hypot', 'imul', 'log10', 'log1p', 'log2', 'sign', 'sinh', 'tanh', 'trunc'],
  JSON: ['parse', 'stringify'],
  Date: ['now', 'parse', 'UTC'],
  Promise: ['all', 'allSettled', 'any', 'race', 'reject', 'resolve'],
  ArrayBuffer: ['isView'],
  Symbol: ['for', 'keyFor'],
  Buffer: ['alloc', 'allocUnsafe', 'byteLength', 'compare', 'concat', 'from', 'isBuffer', 'isEncoding'],
  ...Object.fromEntries(['Float32Array', 'Float64Array', 'Int8Array', 'Int16Array', 'Int32Array', 'Uint8Array', 'Uint8ClampedArray', 'Uint16Array', 'Uint32Array'].map((name) => [name, TYPED_ARRAY_STATICS])),
};

/** Methods called on a value (a string, an array, a number, a regular expression, a date, a promise, a function, a buffer, a typed array). */
export const VALUE_METHODS: ReadonlySet<string> = new Set([
  // String.prototype
  'charAt', 'codePointAt', 'concat', 'endsWith', 'includes', 'indexOf', 'lastIndexOf', 'match', 'padEnd', 'padStart', 'repeat', 'replace',
  'search', 'slice', 'split', 'startsWith', 'substr', 'substring', 'toLowerCase', 'toUpperCase', 'trim', 'trimEnd', 'trimStart',
  // Array.prototype (and the typed arrays')
  'copyWithin', 'every', 'fill', 'filter', 'find', 'findIndex', 'forEach', 'join', 'map', 'pop', 'push', 'reduce', 'reduceRight', 'reverse',
  'shift', 'some', 'sort', 'splice', 'unshift', 'set', 'subarray',
  // Object.prototype, Number.prototype, Function.prototype
  'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toString', 'valueOf',
  'toExponential', 'toFixed', 'toPrecision', 'apply', 'bind', 'call',
  // RegExp.prototype, Promise.prototype
  'exec', 'test', 'then', 'catch', 'finally',
  // Date.prototype: every ES 5.1 method
  'getDate', 'getDay', 'getFullYear', 'getHours', 'getMilliseconds', 'getMinutes', 'getMonth', 'getSeconds', 'getTime', 'getTimezoneOffset',
  'getUTCDate', 'getUTCDay', 'getUTCFullYear', 'getUTCHours', 'getUTCMilliseconds', 'getUTCMinutes', 'getUTCMonth', 'getUTCSeconds',
  'setDate', 'setFullYear', 'setHours', 'setMilliseconds', 'setMinutes', 'setMonth', 'setSeconds', 'setTime',
  'setUTCDate', 'setUTCFullYear', 'setUTCHours', 'setUTCMilliseconds', 'setUTCMinutes', 'setUTCMonth', 'setUTCSeconds',
  'toISOString', 'toJSON', 'toUTCString', 'toDateString', 'toTimeString', 'toLocaleString', 'toLocaleDateString', 'toLocaleTimeString',
  // DataView.prototype
  'getFloat32', 'getFloat64', 'getInt8', 'getInt16', 'getInt32', 'getUint8', 'getUint16', 'getUint32',
  'setFloat32', 'setFloat64', 'setInt8', 'setInt16', 'setInt32', 'setUint8', 'setUint16', 'setUint32',
  // TextDecoder.prototype, TextEncoder.prototype
  'decode', 'encode', 'encodeInto',
  // Buffer.prototype (the Buffer module)
  'compare', 'copy', 'equals', 'swap16', 'swap32', 'swap64', 'write',
  'readInt8', 'readIntBE', 'readIntLE', 'readInt16BE', 'readInt16LE', 'readInt32BE', 'readInt32LE',
  'readUInt8', 'readUIntBE', 'readUIntLE', 'readUInt16BE', 'readUInt16LE', 'readUInt32BE', 'readUInt32LE',
  'readDoubleBE', 'readDoubleLE', 'readFloatBE', 'readFloatLE',
  'writeInt8', 'writeIntBE', 'writeIntLE', 'writeInt16BE', 'writeInt16LE', 'writeInt32BE', 'writeInt32LE',
  'writeUInt8', 'writeUIntBE', 'writeUIntLE', 'writeUInt16BE', 'writeUInt16LE', 'writeUInt32BE', 'writeUInt32LE',
  'writeDoubleBE', 'writeDoubleLE', 'writeFloatBE', 'writeFloatLE',
  // The `cloudfront` module: cf.kvs(), and a store's get(), exists() and meta().
  'kvs', 'get', 'exists', 'meta', 'updateRequestOrigin', 'selectRequestOriginById', 'createRequestOriginGroup',
]);

/** Globals that may be called or constructed by name. The Function constructor and eval are not among them. */
export const GLOBAL_FUNCTIONS: ReadonlySet<string> = new Set([
  'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'isFinite', 'isNaN', 'parseFloat', 'parseInt', 'atob', 'btoa',
  'Array', 'Boolean', 'Date', 'Number', 'Object', 'Promise', 'RegExp', 'String', 'ArrayBuffer', 'DataView', 'TextDecoder', 'TextEncoder',
  'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array',
  'Error', 'EvalError', 'InternalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError',
]);

/** The regular-expression flags the runtime takes: ES 5.1's (njs 0.7.9 refuses /s and /u). */
export const REGEX_FLAGS = 'gim';
