/** Nominal types for units that must never mix (cents vs dollars, Celsius vs Fahrenheit). */
export type Brand<T, B extends string> = T & { readonly __brand: B };
export type Cents = Brand<number, "Cents">;
export type EpochSeconds = Brand<number, "EpochSeconds">;
export type Celsius = Brand<number, "Celsius">;
export type Fahrenheit = Brand<number, "Fahrenheit">;

export const cents = (n: number): Cents => Math.round(n) as Cents;
export const epochSeconds = (n: number): EpochSeconds => Math.floor(n) as EpochSeconds;
