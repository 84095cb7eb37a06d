/**
 * Resolvers that hand back a property of the parent object unchanged, for the many fields whose
 * parent already holds the value in the right shape (connections, edges, page info, payloads).
 */
export function passThrough<Parent>() {
  return <Key extends keyof Parent & string>(...keys: Key[]) =>
    Object.fromEntries(keys.map((key) => [key, (parent: Parent) => parent[key]])) as {
      [K in Key]: (parent: Parent) => Parent[K];
    };
}
