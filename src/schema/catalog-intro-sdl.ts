// The SDL of `_module(name)` and `_dataObject(name)` (issue 18 item 9); their resolvers are
// src/features/catalog-intro/.

export const CATALOG_INTRO_SDL = `"""A module: its submodules, data objects and functions, as the caller's role sees them."""
type _module_info {
  "Dotted path; empty for the root module"
  name: String!
  description: String
  queryType: String
  mutationType: String
  functionType: String
  mutationFunctionType: String
  modules: [_module_info!]!
  dataObjects: [_data_object_ref!]!
  functions: [_function_info!]!
}

"""A data object named from elsewhere (a module, a relation)."""
type _data_object_ref {
  name: String!
  "TABLE or VIEW"
  type: String!
  description: String
  moduleName: String!
  dataSourceName: String!
}

type _function_info {
  name: String!
  description: String
  moduleName: String!
  dataSourceName: String
  isMutation: Boolean!
  isTable: Boolean!
  type: __Type!
  args: [__InputValue!]!
}

type _data_object_properties {
  isM2M: Boolean!
  softDelete: Boolean!
  isParameterized: Boolean!
  readOnly: Boolean!
}

type _data_object_query {
  name: String!
  "list, by_pk, unique, aggregation, bucket_aggregation, insert, insert_batch, update or delete"
  type: String!
  rootTypeName: String!
}

type _data_object_field {
  name: String!
  description: String
  "column, relation, aggregation (of a relation), function_call or derived (_x_part, _x_measurement)"
  kind: String!
  type: __Type!
  args: [__InputValue!]!
}

type _data_object_relation {
  name: String!
  "one or many"
  kind: String!
  fieldName: String!
  description: String
  dataObject: _data_object_ref!
  "The junction object of a many-to-many relation"
  through: _data_object_ref
  sourceKeys: [String!]!
  destinationKeys: [String!]!
}

"""A data object (table or view) as the caller's role sees it."""
type _data_object_info {
  name: String!
  type: String!
  description: String
  moduleName: String!
  dataSourceName: String!
  primaryKey: [String!]!
  properties: _data_object_properties!
  "Arguments of a parameterized view (the fields of its @args input)"
  args: [__InputValue!]!
  queries: [_data_object_query!]!
  fields: [_data_object_field!]!
  relations: [_data_object_relation!]!
  module: _module_info
}`;

export const CATALOG_INTRO_FIELDS =
  '  "A module of the catalog by dotted name (\\"\\" = the root), as this role sees it; null when unknown."\n  _module(name: String!): _module_info\n' +
  '  "A data object by type name, as this role sees it (like __type); null when unknown or not visible."\n  _dataObject(name: String!): _data_object_info';
