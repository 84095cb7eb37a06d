import assert from 'node:assert/strict';
import { makeExecutableSchema } from '@graphql-tools/schema';
import {
  graphql,
  GraphQLError,
  isEnumType,
  isInputObjectType,
  isObjectType,
  isSpecifiedScalarType,
  parseValue as parseValueNode,
  type GraphQLScalarType,
  type GraphQLSchema,
} from 'graphql';
import {
  formatOffsetDateTime,
  parseOffsetDateTime,
  type OffsetDateTime,
} from '../../src/graphql/scalars/date-time.js';
import { scalarResolvers } from '../../src/graphql/scalars/index.js';
import { InvalidScalarValueError } from '../../src/graphql/scalars/string-scalar.js';
import { loadTypeDefs } from '../../src/graphql/schema.js';
import { gatewayApis } from '../support/gateway-schema.js';

/** The scalars sent as JSON strings; Int64 (a number or a string of digits) has its own cases. */
type ScalarName = Exclude<keyof typeof scalarResolvers, 'Int64'>;

/** Both ways a client can send a value: as a variable (parseValue) and inline (parseLiteral). */
const INPUT_PATHS = {
  variable: (scalar: GraphQLScalarType, text: string) => scalar.parseValue(text),
  literal: (scalar: GraphQLScalarType, text: string) =>
    scalar.parseLiteral(parseValueNode(JSON.stringify(text)), undefined),
};

function assertBadUserInput(run: () => unknown, message: RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof GraphQLError, `expected a GraphQLError, got ${String(error)}`);
    assert.equal(error.extensions.code, 'BAD_USER_INPUT');
    assert.match(error.message, message);
    return true;
  });
}

interface ScalarCases {
  accepts: Array<[input: string, expected: unknown]>;
  rejects: Array<[input: string, message: RegExp]>;
}

const CASES: Record<ScalarName, ScalarCases> = {
  DateTime: {
    accepts: [
      ['2026-03-01T09:30:00-05:00', { epochMs: Date.UTC(2026, 2, 1, 14, 30), offsetMinutes: -300 }],
      ['2026-03-01T09:30:00+05:30', { epochMs: Date.UTC(2026, 2, 1, 4, 0), offsetMinutes: 330 }],
      ['2026-03-01T09:30:00Z', { epochMs: Date.UTC(2026, 2, 1, 9, 30), offsetMinutes: 0 }],
      ['2026-03-01t09:30:00z', { epochMs: Date.UTC(2026, 2, 1, 9, 30), offsetMinutes: 0 }],
      [
        '2026-03-01T09:30:00.5Z',
        { epochMs: Date.UTC(2026, 2, 1, 9, 30, 0, 500), offsetMinutes: 0 },
      ],
      [
        '2026-03-01T09:30:00.123999+01:00',
        { epochMs: Date.UTC(2026, 2, 1, 8, 30, 0, 123), offsetMinutes: 60 },
      ],
      [
        '2024-02-29T23:59:59-00:00',
        { epochMs: Date.UTC(2024, 1, 29, 23, 59, 59), offsetMinutes: 0 },
      ],
    ],
    rejects: [
      ['2026-03-01T09:30:00', /no UTC offset; the offset is required/],
      ['2026-03-01T09:30:00.250', /no UTC offset; the offset is required/],
      ['2026-03-01T09:30Z', /not an RFC 3339 date-time/],
      ['2026-03-01', /not an RFC 3339 date-time/],
      ['2026-03-01 09:30:00Z', /not an RFC 3339 date-time/],
      ['2026-03-01T09:30:00+0500', /not an RFC 3339 date-time/],
      ['tomorrow', /not an RFC 3339 date-time/],
      ['2026-02-30T10:00:00Z', /day 30 does not exist in 2026-02, which has 28 days/],
      ['2025-02-29T10:00:00Z', /day 29 does not exist in 2025-02/],
      ['2026-13-01T10:00:00Z', /month 13 does not exist/],
      ['2026-03-01T24:00:00Z', /hour 24 is out of range/],
      ['2026-03-01T10:60:00Z', /minute 60 is out of range/],
      ['2026-03-01T10:00:60Z', /second 60 is out of range/],
      ['2026-03-01T10:00:00+24:00', /offset hour 24 is out of range/],
    ],
  },
  TimeZone: {
    accepts: [
      ['America/New_York', 'America/New_York'],
      ['UTC', 'UTC'],
      ['Asia/Calcutta', 'Asia/Calcutta'],
      ['Asia/Kolkata', 'Asia/Kolkata'],
      ['Etc/GMT+5', 'Etc/GMT+5'],
      ['america/new_york', 'America/New_York'],
      ['utc', 'UTC'],
    ],
    rejects: [
      ['Mars/Olympus_Mons', /TimeZone "Mars\/Olympus_Mons" is not a known IANA time zone name/],
      ['', /TimeZone "" is not a known IANA time zone name/],
      ['America/New_York ', /TimeZone "America\/New_York " is not a known/],
      ['+05:00', /TimeZone "\+05:00" is a UTC offset, not an IANA time zone name/],
      ['-0800', /TimeZone "-0800" is a UTC offset/],
      ['UTC+5', /TimeZone "UTC\+5" is a UTC offset/],
    ],
  },
  EmailAddress: {
    accepts: [
      ['jane.doe@example.com', 'jane.doe@example.com'],
      ['  Jane.Doe+interviews@Mail.Example.CO.UK ', 'Jane.Doe+interviews@Mail.Example.CO.UK'],
    ],
    rejects: [
      ['jane.example.com', /EmailAddress "jane.example.com" is not a valid email address/],
      ['jane@doe@example.com', /exactly one @/],
      ['@example.com', /exactly one @ after a local part/],
      ['jane doe@example.com', /not allowed before the @/],
      ['jane\u0007@example.com', /not allowed before the @/],
      ['.jane@example.com', /not allowed before the @/],
      ['jane@localhost', /domain such as example.com/],
      ['jane@-example.com', /domain such as example.com/],
      ['jane@exa mple.com', /domain such as example.com/],
      [`${'a'.repeat(65)}@example.com`, /local part longer than 64 characters/],
      [`jane@${'a'.repeat(250)}.com`, /longer than 254 characters/],
    ],
  },
  WebUrl: {
    accepts: [
      [
        'https://interviews.example.com/lobby/abc?x=1',
        'https://interviews.example.com/lobby/abc?x=1',
      ],
      ['http://localhost:3000/lobby', 'http://localhost:3000/lobby'],
    ],
    rejects: [
      [
        'ftp://example.com/file',
        /WebUrl "ftp:\/\/example.com\/file" must use http or https, not ftp/,
      ],
      ['javascript:alert(1)', /must use http or https, not javascript/],
      ['/lobby/abc', /WebUrl "\/lobby\/abc" is not an absolute URL/],
      ['https://exa mple.com', /contains whitespace or control characters/],
      [`https://example.com/${'a'.repeat(2030)}`, /longer than 2048 characters/],
    ],
  },
  LanguageCode: {
    accepts: [
      ['en', 'en'],
      ['fil', 'fil'],
    ],
    rejects: [
      ['EN', /LanguageCode "EN" must be lowercase: language codes are lowercase, e.g. "en"/],
      ['De', /language codes are lowercase/],
      ['e', /not a two- or three-letter ISO 639 language code/],
      ['engl', /not a two- or three-letter ISO 639 language code/],
      ['en-US', /not a two- or three-letter/],
    ],
  },
  CountryCode: {
    accepts: [['US', 'US']],
    rejects: [
      ['us', /CountryCode "us" must be uppercase: country codes are uppercase, e.g. "US"/],
      ['Gb', /country codes are uppercase/],
      ['USA', /not a two-letter ISO 3166-1 alpha-2 country code/],
      ['U1', /not a two-letter/],
    ],
  },
  CurrencyCode: {
    accepts: [
      ['USD', 'USD'],
      ['JPY', 'JPY'],
    ],
    rejects: [
      ['usd', /CurrencyCode "usd" must be uppercase, e.g. "USD"/],
      ['XYZ', /not an ISO 4217 currency code/],
      ['US', /not an ISO 4217 currency code/],
    ],
  },
};

describe('the Int64 scalar', () => {
  const scalar = scalarResolvers.Int64;
  it('takes whole numbers as JSON numbers or strings of digits, and keeps every digit', () => {
    assert.equal(scalar.parseValue(1500), '1500');
    assert.equal(scalar.parseValue('9223372036854775807'), '9223372036854775807');
    assert.equal(scalar.parseValue('-12'), '-12');
    assert.equal(scalar.parseLiteral(parseValueNode('42'), undefined), '42');
    assert.equal(
      scalar.parseLiteral(parseValueNode('"1234567890123456789"'), undefined),
      '1234567890123456789',
    );
  });
  it('refuses fractions, text, values past 64 bits and unsafe JSON numbers', () => {
    for (const value of [1.5, 'abc', '9223372036854775808', 2 ** 60, true]) {
      assertBadUserInput(() => scalar.parseValue(value), /Int64 cannot represent/);
    }
    assertBadUserInput(
      () => scalar.parseLiteral(parseValueNode('1.5'), undefined),
      /Int64 must be a whole number, got 1.5/,
    );
  });
  it('answers a JSON number while exact, a string of digits past 2^53', () => {
    assert.equal(scalar.serialize('1500'), 1500);
    assert.equal(scalar.serialize('9007199254740993'), '9007199254740993');
  });
});

describe('custom scalars', () => {
  for (const [name, cases] of Object.entries(CASES) as Array<[ScalarName, ScalarCases]>) {
    const scalar: GraphQLScalarType = scalarResolvers[name] as GraphQLScalarType;

    describe(name, () => {
      for (const [path, parse] of Object.entries(INPUT_PATHS)) {
        describe(`as a ${path}`, () => {
          for (const [input, expected] of cases.accepts) {
            it(`accepts ${JSON.stringify(input)}`, () => {
              assert.deepEqual(parse(scalar, input), expected);
            });
          }
          for (const [input, message] of cases.rejects) {
            it(`rejects ${JSON.stringify(input).slice(0, 60)}`, () => {
              assertBadUserInput(() => parse(scalar, input), message);
            });
          }
        });
      }

      it('rejects a value that is not a string', () => {
        assertBadUserInput(() => scalar.parseValue(42), new RegExp(`^${name} must be a string`));
        assertBadUserInput(
          () => scalar.parseLiteral(parseValueNode('42'), undefined),
          new RegExp(`^${name} must be a string literal, got 42`),
        );
      });

      it('refuses to serialize a value outside its format, as an error the gateway masks', () => {
        const bad = name === 'DateTime' ? '2026-03-01T09:30:00Z' : 'not valid at all';
        for (const value of [bad, 42, null]) {
          assert.throws(
            () => scalar.serialize(value),
            (error: unknown) =>
              error instanceof InvalidScalarValueError && !(error instanceof GraphQLError),
          );
        }
      });
    });
  }

  describe('DateTime round trip', () => {
    const roundTrip = (text: string) =>
      scalarResolvers.DateTime.serialize(parseOffsetDateTime(text));

    it('keeps the offset the value was sent with', () => {
      for (const text of [
        '2026-03-01T09:30:00-05:00',
        '2026-03-01T09:30:00+05:30',
        '2026-03-01T09:30:00Z',
        '2026-11-01T01:30:00-04:00',
      ]) {
        assert.equal(roundTrip(text), text);
      }
    });

    it('keeps fractional seconds to the millisecond and shows them only when not zero', () => {
      assert.equal(roundTrip('2026-03-01T09:30:00.123-05:00'), '2026-03-01T09:30:00.123-05:00');
      assert.equal(roundTrip('2026-03-01T09:30:00.5+05:30'), '2026-03-01T09:30:00.500+05:30');
      assert.equal(roundTrip('2026-03-01T09:30:00.123999Z'), '2026-03-01T09:30:00.123Z');
      assert.equal(roundTrip('2026-03-01T09:30:00.000Z'), '2026-03-01T09:30:00Z');
    });

    it('writes a zero offset as Z, -00:00 and lowercase z included', () => {
      assert.equal(roundTrip('2026-03-01T09:30:00+00:00'), '2026-03-01T09:30:00Z');
      assert.equal(roundTrip('2026-03-01T09:30:00-00:00'), '2026-03-01T09:30:00Z');
      assert.equal(roundTrip('2026-03-01t09:30:00z'), '2026-03-01T09:30:00Z');
    });

    it('handles the years 0000-0099, which Date.UTC would shift', () => {
      assert.equal(roundTrip('0001-01-01T00:00:00Z'), '0001-01-01T00:00:00Z');
      assert.equal(roundTrip('0099-12-31T23:59:59+14:00'), '0099-12-31T23:59:59+14:00');
    });

    it('shows one instant in whatever offset it carries', () => {
      const instant = Date.UTC(2026, 2, 1, 14, 30);
      const format = (offsetMinutes: number) =>
        formatOffsetDateTime({ epochMs: instant, offsetMinutes });
      assert.equal(format(-300), '2026-03-01T09:30:00-05:00');
      assert.equal(format(330), '2026-03-01T20:00:00+05:30');
      assert.equal(format(0), '2026-03-01T14:30:00Z');
    });

    it('refuses internal values RFC 3339 cannot write', () => {
      const bad: OffsetDateTime[] = [
        { epochMs: 1.5, offsetMinutes: 0 },
        { epochMs: 0, offsetMinutes: 24 * 60 },
        { epochMs: 0, offsetMinutes: 0.5 },
        { epochMs: Date.UTC(10000, 0, 1), offsetMinutes: 0 },
      ];
      for (const value of bad) {
        assert.throws(() => formatOffsetDateTime(value), InvalidScalarValueError);
      }
    });
  });
});

describe('custom scalars inside a running schema', () => {
  const schema = makeExecutableSchema({
    typeDefs: /* GraphQL */ `
      scalar DateTime
      scalar TimeZone
      type Query {
        echo(at: DateTime!, zone: TimeZone): String!
      }
    `,
    resolvers: {
      DateTime: scalarResolvers.DateTime,
      TimeZone: scalarResolvers.TimeZone,
      Query: {
        echo: (_: unknown, args: { at: OffsetDateTime; zone?: string }) =>
          `${formatOffsetDateTime(args.at)} ${args.zone ?? '-'}`,
      },
    },
  });

  it('parses variables and literals into internal values', async () => {
    const result = await graphql({
      schema,
      source:
        'query ($at: DateTime!) { a: echo(at: $at) b: echo(at: "2026-03-01T09:30:00Z", zone: "utc") }',
      variableValues: { at: '2026-03-01T09:30:00+05:30' },
    });
    assert.equal(result.errors, undefined);
    assert.deepEqual(
      { ...result.data },
      { a: '2026-03-01T09:30:00+05:30 -', b: '2026-03-01T09:30:00Z UTC' },
    );
  });

  it('reports a bad variable as BAD_USER_INPUT with the scalar message', async () => {
    const result = await graphql({
      schema,
      source: 'query ($at: DateTime!, $zone: TimeZone) { echo(at: $at, zone: $zone) }',
      variableValues: { at: '2026-03-01T09:30:00Z', zone: 'Mars/Olympus_Mons' },
    });
    const [error] = result.errors ?? [];
    assert.equal(error?.extensions.code, 'BAD_USER_INPUT');
    assert.match(error?.message ?? '', /TimeZone "Mars\/Olympus_Mons" is not a known IANA/);
  });

  it('reports a bad literal as BAD_USER_INPUT with the scalar message', async () => {
    const result = await graphql({ schema, source: '{ echo(at: "2026-03-01T09:30:00") }' });
    const [error] = result.errors ?? [];
    assert.equal(error?.extensions.code, 'BAD_USER_INPUT');
    assert.match(error?.message ?? '', /has no UTC offset; the offset is required/);
  });
});

describe('the merged SDL (schema/*.graphql)', () => {
  const schema = makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers: scalarResolvers });

  it('documents every type, field, argument, input field and enum value', () => {
    const undocumented = [...undocumentedElements(schema)];
    assert.deepEqual(undocumented, []);
  });

  it('names the standard behind every custom scalar', () => {
    for (const name of Object.keys(scalarResolvers)) {
      const scalar = schema.getType(name) as GraphQLScalarType;
      assert.match(scalar.specifiedByURL ?? '', /^https:\/\//, `${name} has no @specifiedBy`);
    }
  });

  it('has the five Interview API operations with the arguments of the specification', () => {
    const signature = (type: 'Query' | 'Mutation', field: string) => {
      const definition = (
        type === 'Query' ? schema.getQueryType() : schema.getMutationType()
      )?.getFields()[field];
      assert.ok(definition, `${type}.${field} is missing`);
      const args = definition.args.map((arg) => `${arg.name}: ${String(arg.type)}`).join(', ');
      return `${field}(${args}): ${String(definition.type)}`;
    };
    assert.equal(
      signature('Query', 'findVirtualInterviewEvents'),
      'findVirtualInterviewEvents(first: Int, after: String, input: FindVirtualInterviewEventsInput!): VirtualInterviewEventsConnection!',
    );
    assert.equal(
      signature('Query', 'virtualInterviewEvents'),
      'virtualInterviewEvents(input: VirtualInterviewEventsInput!): VirtualInterviewEventsPayload!',
    );
    for (const verb of ['create', 'update', 'cancel']) {
      const base = `${verb}VirtualInterviewEvent`;
      const capitalized = `${verb[0]?.toUpperCase()}${verb.slice(1)}VirtualInterviewEvent`;
      assert.equal(
        signature('Mutation', base),
        `${base}(input: ${capitalized}Input!): ${capitalized}Payload!`,
      );
    }
  });

  it('the gateway wires the custom scalars in', () => {
    const built = gatewayApis.schema;
    const dateTime = built.getType('DateTime') as GraphQLScalarType;
    assert.deepEqual(dateTime.parseValue('2026-03-01T09:30:00-05:00'), {
      epochMs: Date.UTC(2026, 2, 1, 14, 30),
      offsetMinutes: -300,
    });
    assert.equal(dateTime.specifiedByURL, 'https://www.rfc-editor.org/rfc/rfc3339#section-5.6');
  });
});

/** Paths such as `Query.findVirtualInterviewEvents(first)` of everything without a description. */
function* undocumentedElements(schema: GraphQLSchema): Generator<string> {
  const missing = (description: string | null | undefined) => !description?.trim();
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || isSpecifiedScalarType(type)) continue;
    if (missing(type.description)) yield type.name;
    if (isObjectType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (missing(field.description)) yield `${type.name}.${field.name}`;
        for (const arg of 'args' in field ? field.args : []) {
          if (missing(arg.description)) yield `${type.name}.${field.name}(${arg.name})`;
        }
      }
    }
    if (isEnumType(type)) {
      for (const value of type.getValues()) {
        if (missing(value.description)) yield `${type.name}.${value.name}`;
      }
    }
  }
}
