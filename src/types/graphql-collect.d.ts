declare module 'graphql/execution/collectFields.mjs' {
  export { collectSubfields, collectFields } from 'graphql/execution/collectFields.js';
}
