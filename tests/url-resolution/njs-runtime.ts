// The njs runner lives beside the functions it runs (the build runs them there too).
export * from '../../src/url-resolution/njs-runtime.ts';
