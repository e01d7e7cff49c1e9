/** The shipped scenarios as objects, named as the server names them. */
export function shippedScenarioObjects(dir?: string): ({ name: string } & Record<string, unknown>)[];
