// Entry point of the query service: `npm start`.
// graphql-js checks every instanceof with extra development-mode work unless NODE_ENV is
// production (measured: ~4% of CPU on the bench's Q1). It reads the variable when it loads, so it
// is set here, before the server's modules are imported.
process.env.NODE_ENV ??= 'production';
await import('./start.js');
