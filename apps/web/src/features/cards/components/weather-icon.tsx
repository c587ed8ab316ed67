import type { WeatherIcon } from "@agentfair/contracts";

const SUN = "#f7b500";
const CLOUD = "#9aa7b8";
const DARK = "#6b7785";
const BLUE = "#3491fa";

/** A cloud in the lower part of the 48×48 box. */
const cloud = (fill: string, dy = 0) => <path d={`M14 ${34 + dy}h22a8 8 0 0 0 0-16 11 11 0 0 0-21-2 7 7 0 0 0-1 18z`} fill={fill} />;

/** The §9 weather icons, drawn (no emoji font needed). */
export function WeatherGlyph({ icon, size }: { icon: WeatherIcon; size: number }) {
  let art: React.ReactNode;
  switch (icon) {
    case "sunny":
      art = (
        <g stroke={SUN} strokeWidth={3} strokeLinecap="round">
          <circle cx={24} cy={24} r={9} fill={SUN} />
          {[0, 45, 90, 135, 180, 225, 270, 315].map((a) => (
            <line key={a} x1={24} y1={6} x2={24} y2={10} transform={`rotate(${a} 24 24)`} />
          ))}
        </g>
      );
      break;
    case "cloudy":
      art = (
        <>
          <circle cx={17} cy={16} r={8} fill={SUN} />
          {cloud(CLOUD, 4)}
        </>
      );
      break;
    case "overcast":
      art = (
        <>
          <g transform="translate(-4 -6)">{cloud("#c9d1db")}</g>
          {cloud(DARK, 4)}
        </>
      );
      break;
    case "thunderstorm":
      art = (
        <>
          {cloud(DARK, -6)}
          <path d="M25 29l-6 9h5l-3 8 9-11h-5l3-6z" fill={SUN} />
        </>
      );
      break;
    case "snow":
      art = (
        <>
          {cloud(CLOUD, -6)}
          {[16, 24, 32].map((x, k) => (
            <circle key={x} cx={x} cy={k % 2 ? 42 : 37} r={2.5} fill={BLUE} />
          ))}
        </>
      );
      break;
    case "rain":
      art = (
        <>
          {cloud(CLOUD, -6)}
          <g stroke={BLUE} strokeWidth={3} strokeLinecap="round">
            {[16, 24, 32].map((x) => (
              <line key={x} x1={x} y1={33} x2={x - 3} y2={42} />
            ))}
          </g>
        </>
      );
      break;
    default:
      art = (
        <g fill="none" stroke={DARK} strokeWidth={3} strokeLinecap="round">
          <path d="M6 18h24a5 5 0 1 0-5-5" />
          <path d="M6 26h32a5 5 0 1 1-5 5" />
          <path d="M6 34h16" />
        </g>
      );
  }
  return (
    <svg width={size} height={size} viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      {art}
    </svg>
  );
}
