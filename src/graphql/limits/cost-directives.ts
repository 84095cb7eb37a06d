import {
  getDirectiveValues,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  type GraphQLDirective,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';

/** `@listSize` of one field, as schema/common.graphql declares it. */
export interface ListSize {
  assumedSize?: number;
  /** Each a path through the field's arguments: `first`, or `input.ids` into an input object. */
  slicingArguments: string[][];
  sizedFields: string[];
  requireOneSlicingArgument: boolean;
}

/**
 * The cost directives of a schema (cost-model.ts), read once from its SDL: the weight of each
 * type and field, and the list sizes. A schema that uses them wrongly (a slicing argument the
 * field does not have, a sized field that is no list, a weight that is no number) is refused
 * with every problem named, so a mistake in an SDL file stops the service at startup.
 */
export class CostDirectives {
  private readonly typeWeights = new Map<string, number>();
  private readonly fieldWeights = new Map<string, number>();
  private readonly listSizes = new Map<string, ListSize>();

  constructor(readonly schema: GraphQLSchema) {
    const problems: string[] = [];
    const cost = schema.getDirective('cost');
    const listSize = schema.getDirective('listSize');
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      const typeWeight = cost ? weightOf(cost, type, type.name, problems) : undefined;
      if (typeWeight !== undefined) this.typeWeights.set(type.name, typeWeight);
      if (isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (cost && field.astNode && getDirectiveValues(cost, field.astNode)) {
            problems.push(`${type.name}.${field.name}: @cost on an input field is not read here`);
          }
        }
      }
      if (!isObjectType(type) && !isInterfaceType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        const coordinate = `${type.name}.${field.name}`;
        const fieldWeight = cost ? weightOf(cost, field, coordinate, problems) : undefined;
        if (fieldWeight !== undefined) this.fieldWeights.set(coordinate, fieldWeight);
        for (const argument of field.args) {
          if (cost && argument.astNode && getDirectiveValues(cost, argument.astNode)) {
            problems.push(`${coordinate}(${argument.name}): @cost on an argument is not read here`);
          }
        }
        const values = listSize && field.astNode && getDirectiveValues(listSize, field.astNode);
        if (values) {
          const size = readListSize(values, field, coordinate, problems);
          if (size) this.listSizes.set(coordinate, size);
        }
      }
    }
    if (problems.length) {
      throw new Error(`The cost directives of the schema are wrong:\n- ${problems.join('\n- ')}`);
    }
  }

  /**
   * What one value of `field` (each item, for a list) adds: its own `@cost`, else its type's,
   * else 1 for an object, interface or union and 0 for a scalar or enum. An abstract type weighs
   * what its heaviest possible type does.
   */
  weightOf(parentName: string, field: GraphQLField<unknown, unknown>): number {
    const own = this.fieldWeights.get(`${parentName}.${field.name}`);
    return own ?? this.typeWeight(getNamedType(field.type));
  }

  typeWeight(type: GraphQLNamedType): number {
    const own = this.typeWeights.get(type.name);
    if (own !== undefined) return own;
    if (!isCompositeType(type)) return 0;
    if (isObjectType(type)) return 1;
    return Math.max(1, ...this.schema.getPossibleTypes(type).map((one) => this.typeWeight(one)));
  }

  listSizeOf(coordinate: string): ListSize | undefined {
    return this.listSizes.get(coordinate);
  }
}

const schemas = new WeakMap<GraphQLSchema, CostDirectives>();

/** The cost directives of `schema`, read once. */
export function costDirectivesOf(schema: GraphQLSchema): CostDirectives {
  let directives = schemas.get(schema);
  if (!directives) {
    directives = new CostDirectives(schema);
    schemas.set(schema, directives);
  }
  return directives;
}

function weightOf(
  cost: GraphQLDirective,
  element: { astNode?: Parameters<typeof getDirectiveValues>[1] | null },
  coordinate: string,
  problems: string[],
): number | undefined {
  const values = element.astNode && getDirectiveValues(cost, element.astNode);
  if (!values) return undefined;
  const weight = Number(values.weight);
  if (typeof values.weight !== 'string' || values.weight.trim() === '' || !(weight >= 0)) {
    problems.push(`${coordinate}: @cost(weight: ${JSON.stringify(values.weight)}) is no number`);
    return undefined;
  }
  return weight;
}

function readListSize(
  values: Record<string, unknown>,
  field: GraphQLField<unknown, unknown>,
  coordinate: string,
  problems: string[],
): ListSize | undefined {
  const assumedSize = values.assumedSize as number | undefined | null;
  const slicing = ((values.slicingArguments as string[] | undefined) ?? []).map((path) =>
    path.split('.'),
  );
  const sizedFields = (values.sizedFields as string[] | undefined) ?? [];
  const count = problems.length;
  if (assumedSize != null && assumedSize < 0) {
    problems.push(`${coordinate}: @listSize(assumedSize:) is negative`);
  }
  for (const path of slicing) {
    if (!slicingTarget(field, path)) {
      problems.push(`${coordinate}: @listSize slicing argument "${path.join('.')}" does not exist`);
    }
  }
  const returned = getNamedType(field.type);
  for (const name of sizedFields) {
    const sized =
      isObjectType(returned) || isInterfaceType(returned) ? returned.getFields()[name] : undefined;
    if (!sized || !isListType(getNullableType(sized.type))) {
      problems.push(
        `${coordinate}: @listSize sized field "${name}" is no list of ${returned.name}`,
      );
    }
  }
  if (!sizedFields.length && !isListType(getNullableType(field.type))) {
    problems.push(`${coordinate}: @listSize on a field that returns no list and sizes none`);
  }
  if (assumedSize == null && !slicing.length) {
    problems.push(`${coordinate}: @listSize gives neither assumedSize nor slicingArguments`);
  }
  if (problems.length > count) return undefined;
  return {
    ...(assumedSize != null && { assumedSize }),
    slicingArguments: slicing,
    sizedFields,
    requireOneSlicingArgument: values.requireOneSlicingArgument !== false,
  };
}

/** The argument or input field a slicing path names, if it exists. */
function slicingTarget(
  field: GraphQLField<unknown, unknown>,
  [name, ...rest]: string[],
): GraphQLInputType | undefined {
  let type: GraphQLInputType | undefined = field.args.find((arg) => arg.name === name)?.type;
  for (const step of rest) {
    const named = type && getNamedType(type);
    type = isInputObjectType(named) ? named.getFields()[step]?.type : undefined;
  }
  return type;
}
