/** Nominal types for units that must never mix (cents vs dollars, Celsius vs Fahrenheit). */
export type Brand<T, B extends string> = T & { readonly __brand: B };
export type Cents = Brand<number, "Cents">;
export type EpochSeconds = Brand<number, "EpochSeconds">;
export type Celsius = Brand<number, "Celsius">;
export type Fahrenheit = Brand<number, "Fahrenheit">;

export const cents = (n: number): Cents => Math.round(n) as Cents;
export const epochSeconds = (n: number): EpochSeconds => Math.floor(n) as EpochSeconds;
/** A temperature or a temperature difference in Celsius (how readings are stored). */
export const celsius = (n: number): Celsius => n as Celsius;
/** A temperature or a temperature difference in Fahrenheit (as a person chose to see it). */
export const fahrenheit = (n: number): Fahrenheit => n as Fahrenheit;
